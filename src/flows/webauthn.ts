/**
 * GET /webauthn-options/:provider and POST /callback/:provider for passkeys: the effects of the
 * WebAuthn machine on @simplewebauthn/server. The relying party is the trusted request URL's host
 * and origin; the challenge works once (recorded in the store and consumed on use) and only for the
 * provider and action it was minted for; a counter that goes backwards is a cloned authenticator.
 */
// Types only: the functions come with the provider (`provider.simpleWebAuthn`), so the handler's
// module graph never reaches @simplewebauthn/server unless a configuration lists a passkey provider.
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport as AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { fromPromise } from "xstate";
import { webauthnMachine, type WebAuthnContext } from "../../machines/webauthn.machine.js";
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
import type { RequestContext } from "../request-context.js";
import type { ResponsePlan } from "../response.js";
import { requireAdapter } from "../session/database-session.js";
import type { Account, AdapterAuthenticator, JWT } from "../types.js";
import { rateLimitedError, rateLimitedPlan, refusalError } from "./failure.js";
import type { LimitVerdict } from "../../machines/shared.js";
import { currentUser } from "../session/current-user.js";
import { runMachine } from "./run.js";
import { checkRequest } from "../rate-limit/limiter.js";
import { bindSignInCompletion, type PendingAuthenticator } from "./signin-completion.js";
import { signInAnswer, type SignInAnswer } from "./outcome.js";
import { browserCredentialId, credentialIdLookups, storedCredentialId } from "./credential-id.js";

const VERSION = 1;

function webauthnProvider(rt: Runtime, id: string): WebAuthnConfig & { simpleWebAuthn: SimpleWebAuthn } {
  // The runtime refuses a WebAuthn provider without `simpleWebAuthn` when the config is resolved.
  return rt.providerById.get(id) as WebAuthnConfig & { simpleWebAuthn: SimpleWebAuthn };
}

/** The relying party: from the provider's settings, else the trusted request URL. */
export function relyingParty(provider: WebAuthnConfig, ctx: RequestContext): { id: string; name: string; origin: string } {
  const url = new URL(ctx.origin);
  return {
    id: provider.relayingParty?.id ?? url.hostname,
    name: provider.relayingParty?.name ?? url.host,
    origin: provider.relayingParty?.origin ?? ctx.origin,
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
function described(stored: AdapterAuthenticator[]): Array<{ id: string; transports: AuthenticatorTransportFuture[] | undefined }> {
  return stored.map((a) => ({ id: browserCredentialId(a.credentialID), transports: transportsOf(a.transports) }));
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

export function bindWebAuthn(rt: Runtime) {
  return webauthnMachine.provide({
    actors: {
      checkRequestLimit: fromPromise(({ input }) => checkRequest(rt.rateLimit, input.req.request, rt.logger)),
      // The address a passkey is registered under becomes a user's address: as strict as an email sign-in's.
      normalizeEmail: fromPromise(async ({ input }) => normalizeEmail(input.email)),

      decideAction: fromPromise(async ({ input }) => {
        const currentUserId = await currentUser(rt, input.req);
        if (currentUserId) return { action: input.requestedAction ?? "register", currentUserId };
        if (!input.email) return { action: input.requestedAction ?? "authenticate" };
        const adapter = requireAdapter(rt);
        const owner = await adapter.getUserByEmail!(input.email);
        if (!owner) return { action: input.requestedAction ?? "register" };
        // Someone has the address: they sign in with a passkey of theirs; registering is refused by the machine.
        const action = input.requestedAction ?? ((await adapter.listAuthenticatorsByUserId!(owner.id)).length ? "authenticate" : "register");
        return { action, emailTaken: true };
      }),

      generateOptions: fromPromise(async ({ input }) => {
        const provider = webauthnProvider(rt, input.providerId);
        const adapter = requireAdapter(rt);
        const rp = relyingParty(provider, input.req);
        let options: { challenge: string };
        let email: string | undefined;
        if (input.action === "register") {
          const user = input.currentUserId ? await adapter.getUser!(input.currentUserId) : null;
          email = user?.email || input.email;
          if (!email) throw new WebAuthnVerificationError("Registering a passkey needs an email address or a signed-in user.");
          const existing = user ? await adapter.listAuthenticatorsByUserId!(user.id) : [];
          options = await provider.simpleWebAuthn.generateRegistrationOptions({
            rpName: rp.name,
            rpID: rp.id,
            userName: email,
            userDisplayName: user?.name ?? email,
            attestationType: "none",
            excludeCredentials: described(existing),
            authenticatorSelection: { residentKey: "required", userVerification: "required" },
          });
        } else {
          const user = input.email ? await adapter.getUserByEmail!(input.email) : null;
          const allowed = user ? await adapter.listAuthenticatorsByUserId!(user.id) : [];
          options = await provider.simpleWebAuthn.generateAuthenticationOptions({
            rpID: rp.id,
            userVerification: "required",
            allowCredentials: described(allowed),
          });
        }
        const maxAge = provider.challengeMaxAge ?? 300;
        const record = await challengeRecord(rt, provider.id, options.challenge);
        await adapter.createVerificationToken!({ ...record, expires: new Date(Date.now() + maxAge * 1000) });
        const cookie = input.req.cookies.webauthnChallenge;
        const sealed = await encode({
          token: {
            v: VERSION,
            p: provider.id,
            challenge: options.challenge,
            action: input.action,
            ...(email ? { email } : {}),
            ...(input.currentUserId ? { userId: input.currentUserId } : {}),
          },
          secret: rt.secrets,
          salt: cookie.name,
          maxAge,
        });
        const cookies: SetCookie[] = [{ name: cookie.name, value: sealed, options: { ...cookie.options, maxAge } }];
        return { options, cookies };
      }),

      consumeChallenge: fromPromise(async ({ input }) => {
        const cookie = input.req.cookies.webauthnChallenge;
        const clearCookies = input.req.jar.has(cookie.name) ? [expireCookie(cookie.name, cookie.options)] : [];
        const raw = input.req.jar.get(cookie.name);
        const payload = raw
          ? await decode<JWT & { v?: unknown; p?: unknown; challenge?: unknown; action?: unknown; email?: unknown; userId?: unknown }>({
              token: raw,
              secret: rt.secrets,
              salt: cookie.name,
            })
          : null;
        if (!payload || payload.v !== VERSION || typeof payload.challenge !== "string") {
          throw new WebAuthnVerificationError("The WebAuthn challenge cookie is missing, tampered or expired.");
        }
        if (payload.p !== input.providerId) throw new WebAuthnVerificationError("The challenge was minted for another provider.");
        if (payload.action !== "register" && payload.action !== "authenticate") throw new WebAuthnVerificationError("Unknown ceremony.");
        const used = await requireAdapter(rt).useVerificationToken!(await challengeRecord(rt, input.providerId, payload.challenge));
        if (!used || used.expires.valueOf() <= Date.now()) {
          throw new WebAuthnVerificationError("The WebAuthn challenge was already used or has expired.");
        }
        const currentUserId = await currentUser(rt, input.req);
        // The ceremony belongs to whoever was signed in (or nobody) when its options were made.
        const mintedFor = typeof payload.userId === "string" ? payload.userId : undefined;
        if (mintedFor !== currentUserId) {
          throw new WebAuthnVerificationError("The signed-in user changed during the passkey ceremony.");
        }
        return {
          challenge: {
            value: payload.challenge,
            action: payload.action,
            ...(typeof payload.email === "string" ? { email: payload.email } : {}),
            ...(typeof payload.userId === "string" ? { userId: payload.userId } : {}),
          },
          clearCookies,
          ...(currentUserId ? { currentUserId } : {}),
        };
      }),

      verifyAuthentication: fromPromise(async ({ input }) => {
        const provider = webauthnProvider(rt, input.providerId);
        const adapter = requireAdapter(rt);
        const response = input.response as AuthenticationResponseJSON;
        if (!response || typeof response.id !== "string") throw new WebAuthnVerificationError("No credential was posted.");
        const authenticator = await findAuthenticator(rt, response.id);
        if (!authenticator) throw new UnknownPasskey("This passkey is not known here.");
        const rp = relyingParty(provider, input.req);
        const result = await provider.simpleWebAuthn.verifyAuthenticationResponse({
          response,
          expectedChallenge: input.challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: browserCredentialId(authenticator.credentialID),
            publicKey: fromBase64(authenticator.credentialPublicKey),
            counter: authenticator.counter,
            ...(authenticator.transports ? { transports: transportsOf(authenticator.transports)! } : {}),
          },
          requireUserVerification: true,
        }).catch((error: unknown) => {
          throw new WebAuthnVerificationError("The passkey's answer did not verify.", { cause: error });
        });
        if (!result.verified) throw new WebAuthnVerificationError("The passkey's answer did not verify.");
        await adapter.updateAuthenticatorCounter!(authenticator.credentialID, result.authenticationInfo.newCounter);
        const user = await adapter.getUser!(authenticator.userId);
        if (!user) throw new WebAuthnVerificationError("The passkey's user no longer exists.");
        const account: Account = { provider: provider.id, type: "webauthn", providerAccountId: authenticator.providerAccountId };
        return { user, account, storedUser: user };
      }),

      verifyRegistration: fromPromise(async ({ input }) => {
        const provider = webauthnProvider(rt, input.providerId);
        const rp = relyingParty(provider, input.req);
        const result = await provider.simpleWebAuthn.verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: input.challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
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
      req: ctx,
    },
    { until: "awaitingCredential" },
  );
  if (!result.done) {
    const context = result.context as WebAuthnContext;
    return { json: { action: context.action, options: context.options }, cookies: context.challengeCookies };
  }
  // Refused before any challenge was minted: a typed 400, no cookie, nothing stored.
  const output = result.output;
  const failure = output.outcome === "refused" ? output.failure : undefined;
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
  const context: WebAuthnContext = {
    providerId: provider.id,
    req: ctx,
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
    req: ctx,
  };
  const result = await runMachine(rt, machine, undefined, { resume: { value: "awaitingCredential", context, event }, request: ctx });
  if (!result.done) throw new Error("The WebAuthn flow stopped before its end.");
  // A passkey for an address someone else owns is refused as AccountNotLinked.
  return signInAnswer(ctx, result.output, (failure) =>
    failure.as === "OAuthAccountNotLinked" ? new AccountNotLinked("That email belongs to another account.") : refusalError(failure),
  );
}
