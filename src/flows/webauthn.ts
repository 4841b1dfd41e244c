/**
 * GET /webauthn-options/:provider and POST /callback/:provider for passkeys: the effects of the
 * WebAuthn machine on @simplewebauthn/server and the store, each doing one thing (the machine makes
 * every choice between them). The relying party is the trusted request URL's host and origin; the
 * challenge works once (recorded in the store and consumed on use) and only for the provider and
 * action it was minted for; a counter that goes backwards is a cloned authenticator. The machine holds
 * plain data: effects that need the live request (cookie names, the session cookie) use `requestOf`.
 */
// Types only: the functions come with the provider (`provider.simpleWebAuthn`), so the handler's
// module graph never reaches @simplewebauthn/server unless a configuration lists a passkey provider.
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport as AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import {
  webauthnMachine,
  type CeremonyOptions,
  type PasskeyDescriptor,
  type VerifiedCredential,
  type WebAuthnContext,
  type WebAuthnRefusal,
} from "../../machines/webauthn.machine.js";
import type { Runtime } from "../config/runtime.js";
import { expireCookie, type SetCookie } from "../cookies.js";
import { hashToken } from "../email/token.js";
import { AccountNotLinked, EmailSignInError, UnknownPasskey, WebAuthnVerificationError } from "../errors.js";
import { normalizeEmail } from "../email/identifier.js";
import { decode, encode } from "../jwt/index.js";
import { logAuthError } from "../logger.js";
import { signInErrorMessage } from "../pages/messages.js";
import type { SimpleWebAuthn, WebAuthnConfig } from "../providers/webauthn.js";
import { requestedCallbackUrl } from "../redirect.js";
import { requestFacts, type RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { requireAdapter } from "../session/database-session.js";
import type { Account, AdapterAuthenticator, JWT } from "../types.js";
import { rateLimitedError, rateLimitedPlan, refusalError } from "./failure.js";
import type { FlowFailure, LimitVerdict } from "../../machines/shared.js";
import { currentUser } from "../session/current-user.js";
import { requestOf, runMachine } from "./run.js";
import { fromEffect } from "./effect.js";
import { checkRequest } from "../rate-limit/limiter.js";
import { bindSignInCompletion, twoFactorStep, type PendingAuthenticator } from "./signin-completion.js";
import { signInAnswer, type SignInAnswer } from "./outcome.js";
import { flowRoute } from "./flow-route.js";
import { browserCredentialId, credentialIdLookups, storedCredentialId } from "./credential-id.js";

const VERSION = 1;

function webauthnProvider(rt: Runtime, id: string): WebAuthnConfig & { simpleWebAuthn: SimpleWebAuthn } {
  // The runtime refuses a WebAuthn provider without `simpleWebAuthn` when the config is resolved.
  return rt.providerById.get(id) as WebAuthnConfig & { simpleWebAuthn: SimpleWebAuthn };
}

/** The relying party: from the provider's settings, else the trusted request URL. */
export function relyingParty(provider: WebAuthnConfig, origin: string): { id: string; name: string; origin: string } {
  const url = new URL(origin);
  return {
    id: provider.relayingParty?.id ?? url.hostname,
    name: provider.relayingParty?.name ?? url.host,
    origin: provider.relayingParty?.origin ?? origin,
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function transportsOf(stored: string | null | undefined): AuthenticatorTransportFuture[] | undefined {
  return stored ? (stored.split(",").filter(Boolean) as AuthenticatorTransportFuture[]) : undefined;
}

/** Stored authenticators as the browser names them in `allowCredentials` / `excludeCredentials`. */
export function passkeyDescriptors(stored: AdapterAuthenticator[]): PasskeyDescriptor[] {
  return stored.map((a) => {
    const transports = transportsOf(a.transports);
    return { id: browserCredentialId(a.credentialID), ...(transports ? { transports } : {}) };
  });
}

/** The stored authenticator a posted credential id names, under either spelling (see credential-id.ts). */
async function findAuthenticator(rt: Runtime, postedId: string): Promise<AdapterAuthenticator | null> {
  for (const id of credentialIdLookups(postedId)) {
    const found = await requireAdapter(rt).getAuthenticator!(id);
    if (found) return found;
  }
  return null;
}

/** The store's record of a challenge, so it works once even if its cookie is replayed. */
async function challengeRecord(rt: Runtime, providerId: string, challenge: string): Promise<{ identifier: string; token: string }> {
  return { identifier: `appauth:webauthn-challenge:${providerId}`, token: await hashToken(challenge, rt.secrets[0]!) };
}

/** How long a challenge works, in seconds: the provider's setting, else five minutes. */
function challengeMaxAge(rt: Runtime, providerId: string): number {
  return webauthnProvider(rt, providerId).challengeMaxAge ?? 300;
}

/** The browser's descriptors as the library takes them. */
function asDescriptors(passkeys: PasskeyDescriptor[]): Array<{ id: string; transports: AuthenticatorTransportFuture[] | undefined }> {
  return passkeys.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransportFuture[] | undefined }));
}

/** How a ceremony asks for user verification: the sign-in requires it; a second factor only prefers it. */
export type UserVerification = "required" | "preferred";

/** Options for `navigator.credentials.get()`, naming the passkeys that may answer (all, when empty). */
export async function passkeyRequestOptions(
  rt: Runtime,
  input: { providerId: string; origin: string; allowCredentials: PasskeyDescriptor[]; userVerification?: UserVerification },
): Promise<CeremonyOptions> {
  const provider = webauthnProvider(rt, input.providerId);
  const rp = relyingParty(provider, input.origin);
  return (await provider.simpleWebAuthn.generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: input.userVerification ?? "required",
    allowCredentials: asDescriptors(input.allowCredentials),
  })) as unknown as CeremonyOptions;
}

/** The provider, and what its library checks an answer against: the challenge, the relying party's origin and RP ID. */
function expectations<C>(rt: Runtime, input: { providerId: string; origin: string; challenge: C }) {
  const provider = webauthnProvider(rt, input.providerId);
  const rp = relyingParty(provider, input.origin);
  return { provider, expected: { expectedChallenge: input.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id } };
}

/**
 * Verifies a passkey's answer against the stored `passkey`: signature, origin, RP ID, the challenge
 * (a value, or a check that also uses it up), user verification unless only preferred, and a counter
 * that must not go back. Resolves to the new counter; throws `WebAuthnVerificationError` otherwise.
 */
export async function verifyPasskeyAnswer(
  rt: Runtime,
  input: {
    providerId: string;
    origin: string;
    response: unknown;
    challenge: string | ((challenge: string) => Promise<boolean>);
    passkey: AdapterAuthenticator;
    userVerification?: UserVerification;
  },
): Promise<number> {
  const { provider, expected } = expectations(rt, input);
  const { passkey } = input;
  const result = await provider.simpleWebAuthn.verifyAuthenticationResponse({
    response: input.response as AuthenticationResponseJSON,
    ...expected,
    credential: {
      id: browserCredentialId(passkey.credentialID),
      publicKey: fromBase64(passkey.credentialPublicKey),
      counter: passkey.counter,
      ...(passkey.transports ? { transports: transportsOf(passkey.transports)! } : {}),
    },
    requireUserVerification: input.userVerification !== "preferred",
  }).catch((error: unknown) => {
    throw new WebAuthnVerificationError("The passkey's answer did not verify.", { cause: error });
  });
  if (!result.verified) throw new WebAuthnVerificationError("The passkey's answer did not verify.");
  return result.authenticationInfo.newCounter;
}

/** The refusals the machine decides itself, worded as the errors the browser and the log see. */
const refusals: Record<WebAuthnRefusal, () => WebAuthnVerificationError> = {
  noAddressToRegister: () => new WebAuthnVerificationError("Registering a passkey needs an email address or a signed-in user."),
  noCredentialPosted: () => new WebAuthnVerificationError("No credential was posted."),
  signedInUserChanged: () => new WebAuthnVerificationError("The signed-in user changed during the passkey ceremony."),
  unknownPasskey: () => new UnknownPasskey("This passkey is not known here."),
  passkeyOwnerGone: () => new WebAuthnVerificationError("The passkey's user no longer exists."),
};

/** A failure with the machine's own refusal as its error, made the error it names; else as it is. */
function worded(failure: FlowFailure): FlowFailure {
  const { error } = failure;
  return typeof error === "string" && Object.hasOwn(refusals, error) ? { ...failure, error: refusals[error as WebAuthnRefusal]() } : failure;
}

export function bindWebAuthn(rt: Runtime) {
  return webauthnMachine.provide({
    actors: {
      checkRequestLimit: fromEffect(({ system }) => checkRequest(rt.rateLimit, requestOf(system).request, rt.logger)),
      // The address a passkey is registered under becomes a user's address: as strict as an email sign-in's.
      normalizeEmail: fromEffect(async ({ input }) => normalizeEmail(input.email)),
      findSignedInUser: fromEffect(({ system }) => currentUser(rt, requestOf(system))),
      findUserByEmail: fromEffect(async ({ input }) => requireAdapter(rt).getUserByEmail!(input.email)),
      findUser: fromEffect(async ({ input }) => requireAdapter(rt).getUser!(input.userId)),
      listPasskeys: fromEffect(async ({ input }) => passkeyDescriptors(await requireAdapter(rt).listAuthenticatorsByUserId!(input.userId))),

      generateRegistrationOptions: fromEffect(async ({ input }) => {
        const provider = webauthnProvider(rt, input.providerId);
        const rp = relyingParty(provider, input.origin);
        return (await provider.simpleWebAuthn.generateRegistrationOptions({
          rpName: rp.name,
          rpID: rp.id,
          userName: input.userName,
          userDisplayName: input.userDisplayName,
          attestationType: "none",
          excludeCredentials: asDescriptors(input.excludeCredentials),
          authenticatorSelection: { residentKey: "required", userVerification: "required" },
        })) as unknown as CeremonyOptions;
      }),

      generateAuthenticationOptions: fromEffect(({ input }) => passkeyRequestOptions(rt, input)),

      recordChallenge: fromEffect(async ({ input }) => {
        const expires = new Date(Date.now() + challengeMaxAge(rt, input.providerId) * 1000);
        await requireAdapter(rt).createVerificationToken!({ ...(await challengeRecord(rt, input.providerId, input.challenge)), expires });
      }),

      sealChallenge: fromEffect(async ({ input, system }) => {
        const cookie = requestOf(system).cookies.webauthnChallenge;
        const maxAge = challengeMaxAge(rt, input.providerId);
        const { value, ...minted } = input.challenge;
        const sealed = await encode({
          token: { v: VERSION, p: input.providerId, challenge: value, ...minted },
          secret: rt.secrets,
          salt: cookie.name,
          maxAge,
        });
        const cookies: SetCookie[] = [{ name: cookie.name, value: sealed, options: { ...cookie.options, maxAge } }];
        return cookies;
      }),

      openChallenge: fromEffect(async ({ input, system }) => {
        const cookie = requestOf(system).cookies.webauthnChallenge;
        const payload = input.sealed
          ? await decode<JWT & { v?: unknown; p?: unknown; challenge?: unknown; action?: unknown; email?: unknown; userId?: unknown }>({
              token: input.sealed,
              secret: rt.secrets,
              salt: cookie.name,
            })
          : null;
        if (!payload || payload.v !== VERSION || typeof payload.challenge !== "string") {
          throw new WebAuthnVerificationError("The WebAuthn challenge cookie is missing, tampered or expired.");
        }
        if (payload.p !== input.providerId) throw new WebAuthnVerificationError("The challenge was minted for another provider.");
        if (payload.action !== "register" && payload.action !== "authenticate") throw new WebAuthnVerificationError("Unknown ceremony.");
        return {
          value: payload.challenge,
          action: payload.action,
          ...(typeof payload.email === "string" ? { email: payload.email } : {}),
          ...(typeof payload.userId === "string" ? { userId: payload.userId } : {}),
        };
      }),

      consumeChallenge: fromEffect(async ({ input }) => {
        const used = await requireAdapter(rt).useVerificationToken!(await challengeRecord(rt, input.providerId, input.challenge));
        if (!used || used.expires.valueOf() <= Date.now()) {
          throw new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
        }
      }),

      findPasskey: fromEffect(({ input }) => findAuthenticator(rt, input.credentialId)),

      verifyAuthentication: fromEffect(({ input }) => verifyPasskeyAnswer(rt, input)),

      updatePasskeyCounter: fromEffect(async ({ input }) => {
        await requireAdapter(rt).updateAuthenticatorCounter!(input.credentialId, input.counter);
      }),

      verifyRegistration: fromEffect(async ({ input }): Promise<VerifiedCredential> => {
        const { provider, expected } = expectations(rt, input);
        const result = await provider.simpleWebAuthn.verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          ...expected,
          requireUserVerification: true,
        }).catch((error: unknown) => {
          throw new WebAuthnVerificationError("The new passkey did not verify.", { cause: error });
        });
        if (!result.verified || !result.registrationInfo) throw new WebAuthnVerificationError("The new passkey did not verify.");
        const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
        // Stored as standard base64, as Auth.js stores it; the library's id is always base64url.
        const credentialID = storedCredentialId(credential.id);
        if (credentialID === null) throw new WebAuthnVerificationError("The new passkey's id is not base64url.");
        const authenticator: PendingAuthenticator = {
          credentialID,
          credentialPublicKey: toBase64(credential.publicKey),
          counter: credential.counter,
          credentialDeviceType,
          credentialBackedUp,
          transports: credential.transports?.join(",") ?? null,
        };
        const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: credentialID, authenticator };
        return { user: { email: input.email ?? null, name: input.email ?? null }, account };
      }),

      completeSignIn: bindSignInCompletion(rt),
    },
  });
}

export type BoundWebAuthn = ReturnType<typeof bindWebAuthn>;

/** GET /webauthn-options/:provider: `{ action, options }`, with the challenge cookie. */
export async function handleWebAuthnOptions(
  rt: Runtime,
  machine: BoundWebAuthn,
  ctx: RequestContext,
  provider: WebAuthnConfig,
): Promise<ResponsePlan> {
  const requested = ctx.query.get("action");
  // A blank field is no address; anything else is normalised and checked by the flow.
  const raw = ctx.query.get("email");
  const email = raw?.trim() ? raw : undefined;
  const result = await runMachine(
    rt,
    machine,
    {
      providerId: provider.id,
      ...(requested === "register" || requested === "authenticate" ? { requestedAction: requested } : {}),
      ...(email ? { email } : {}),
      request: requestFacts(ctx),
    },
    { until: "awaitingCredential", request: ctx },
  );
  if (!result.done) {
    const context = result.context;
    return { json: { action: context.action, options: context.options }, cookies: context.challengeCookies };
  }
  // Refused before any challenge was minted: a typed 400, no cookie, nothing stored.
  const output = result.output;
  const failure = output.outcome === "refused" ? worded(output.failure) : undefined;
  if (failure?.as === "RateLimited") return rateLimitedPlan(rt, rateLimitedError(failure.error as LimitVerdict));
  if (failure?.as === "OAuthAccountNotLinked") {
    const message = signInErrorMessage(AccountNotLinked.type);
    logAuthError(rt.logger, new AccountNotLinked(message));
    return { status: 400, json: { error: AccountNotLinked.type, message } };
  }
  if (failure?.as === "EmailSignInError") {
    const message = failure.error instanceof Error ? failure.error.message : "That is not one plain email address.";
    logAuthError(rt.logger, new EmailSignInError(message));
    return { status: 400, json: { error: EmailSignInError.type, message } };
  }
  rt.logger.debug("WebAuthnOptions", failure?.error);
  const error = failure?.error;
  return { status: 400, json: { error: WebAuthnVerificationError.type, message: error instanceof Error ? error.message : "No options." } };
}

/** POST /callback/:provider: the browser's credential; resume the flow where it rested. */
export async function handleWebAuthnCallback(
  rt: Runtime,
  machine: BoundWebAuthn,
  ctx: RequestContext,
  provider: WebAuthnConfig,
): Promise<SignInAnswer> {
  let response: unknown = ctx.body.data;
  if (typeof response === "string") {
    try {
      response = JSON.parse(response);
    } catch {
      response = undefined;
    }
  }
  const cookie = ctx.cookies.webauthnChallenge;
  const sealed = ctx.jar.get(cookie.name);
  const context: WebAuthnContext = {
    providerId: provider.id,
    request: requestFacts(ctx),
    // User verification is required of every passkey here: by default it counts as both factors.
    ...twoFactorStep(rt, ["hwk"], { countsAsBoth: rt.twoFactor?.passkeyCountsAsBoth !== false }),
    ...(sealed !== undefined ? { sealedChallenge: sealed } : {}),
    // Cleared on every answer, even when the challenge cannot be read.
    challengeCookies: ctx.jar.has(cookie.name) ? [expireCookie(cookie.name, cookie.options)] : [],
    sessionCookies: [],
    events: [],
  };
  const event = {
    type: "credential.received" as const,
    action: typeof ctx.body.action === "string" ? ctx.body.action : "",
    response,
    callbackUrl: requestedCallbackUrl(ctx),
  };
  const result = await runMachine(rt, machine, undefined, { resume: { value: "awaitingCredential", context, event }, request: ctx });
  if (!result.done) throw new Error("The WebAuthn flow stopped before its end.");
  // A passkey for an address someone else owns is refused as AccountNotLinked.
  return signInAnswer(ctx, result.output, (failure) =>
    failure.as === "OAuthAccountNotLinked" ? new AccountNotLinked("That email belongs to another account.") : refusalError(worded(failure)),
  );
}

/** The routes this flow serves: the ceremony's options, and the browser's answer. */
export const routes = { options: flowRoute(bindWebAuthn, handleWebAuthnOptions), callback: flowRoute(bindWebAuthn, handleWebAuthnCallback) };
