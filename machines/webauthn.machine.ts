/**
 * Passkeys (WebAuthn): options → browser ceremony → verification, over two requests.
 * GET /webauthn-options counts against the client's request ceiling (rate limit), normalises the email
 * it was given (as strictly as an email sign-in does), finds who is signed in and who owns the address,
 * and chooses between registering and authenticating in `choosingCeremony`, whose order of checks is
 * the policy. A signed-out registration for an address that is already someone's is refused before any
 * challenge exists. The options are generated, the challenge recorded in the store (so it works once)
 * and sealed in an encrypted, provider-bound, short-lived cookie; the flow rests in `awaitingCredential`.
 * POST /callback resumes there with the browser's credential: the challenge is opened and consumed,
 * the ceremony it was minted for chosen, the answer verified (origin, RP ID, challenge, signature, user
 * verification, counter), and the shared sign-in completion issues the session.
 *
 * Input and context are plain data: the request's facts, the page's fields, the sealed cookie's value.
 */
import { assign, enqueueActions, setup } from "xstate";
import type { Account, AdapterAuthenticator, AdapterUser, User } from "../src/types.js";
import {
  effect,
  limiterStep,
  rateLimitedEvent,
  type FlowFailure,
  type LimitVerdict,
  type RateLimitedEvent,
  type RequestFacts,
  type SetCookie,
} from "./shared.js";
import {
  completionEnds,
  completionResult,
  completionStep,
  endedAs,
  signInCompletionMachine,
  type CompletionEvent,
  type CompletionResult,
  type SignInCompletionOutput,
  type TwoFactorStep,
} from "./signin-completion.machine.js";

export type WebAuthnAction = "register" | "authenticate";

export interface WebAuthnInput {
  providerId: string;
  /** The action the page asked for, if any; else it is chosen from the session and the email. */
  requestedAction?: WebAuthnAction;
  /** The email the page sent, as sent: it is normalised and checked before anything else. */
  email?: string;
  request: RequestFacts;
  /** The second-factor step, handed to the completion (absent: no `twoFactor` configuration). */
  twoFactor?: TwoFactorStep;
}

/** The browser's answer to the ceremony, posted to the callback. */
export type WebAuthnCredentialEvent = {
  type: "credential.received";
  action: string;
  /** The posted credential, parsed from its JSON (undefined when it was not JSON). */
  response: unknown;
  /** Where to go afterwards (untrusted until judged by the redirect callback). */
  callbackUrl: string;
};

/** A stored passkey as the browser names it in `allowCredentials` / `excludeCredentials`. */
export interface PasskeyDescriptor {
  id: string;
  transports?: string[];
}

/** Options generated for the browser: the challenge the ceremony must answer, and the rest as the library made it. */
export type CeremonyOptions = { challenge: string } & Record<string, unknown>;

/** What the challenge cookie carries from the options request to the callback. */
export interface CeremonyChallenge {
  value: string;
  action: WebAuthnAction;
  /** Registration: the address the passkey is registered under. */
  email?: string;
  /** The user signed in when the options were made: the ceremony belongs to them. */
  userId?: string;
}

/** What a verified ceremony says about who is signing in. */
export interface VerifiedCredential {
  user: User;
  account: Account;
  /** Authentication only: the stored user the authenticator belongs to. */
  storedUser?: AdapterUser;
}

/**
 * Refusals the machine decides itself (no effect threw), carried as the failure's `error`: `src/`
 * words each as the WebAuthnVerificationError it is.
 */
export type WebAuthnRefusal =
  | "noAddressToRegister"
  | "noCredentialPosted"
  | "signedInUserChanged"
  | "unknownPasskey"
  | "passkeyOwnerGone";

export interface WebAuthnContext extends WebAuthnInput, CompletionResult {
  /** What the rate limiter counted for this request (the client's request ceiling). */
  limit?: LimitVerdict;
  /** The user signed in on this browser, if any. */
  currentUserId?: string;
  /** The stored user who has the address (looked up when the address matters to the choice). */
  addressOwnerId?: string;
  /** The stored passkeys of the person the ceremony is for: the address owner's, or the registrant's. */
  passkeys?: PasskeyDescriptor[];
  /** The signed-in user a passkey is registered for, as stored. */
  registrant?: { email: string | null; name: string | null };
  action?: WebAuthnAction;
  options?: CeremonyOptions;
  challengeCookies: SetCookie[];
  /** The callback: the challenge cookie's sealed value as the browser sent it. */
  sealedChallenge?: string;
  response?: unknown;
  postedAction?: string;
  callbackUrl?: string;
  challenge?: CeremonyChallenge;
  /** Authentication: the stored passkey the posted credential names, and its counter once verified. */
  passkey?: AdapterAuthenticator;
  newCounter?: number;
  verified?: VerifiedCredential;
}

export type WebAuthnOutput =
  | { outcome: "signedIn"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "challenged"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "diverted"; redirectTo: string; cookies: SetCookie[] }
  | { outcome: "refused"; failure: FlowFailure; cookies: SetCookie[] };

export type WebAuthnEmitted = CompletionEvent | RateLimitedEvent;

/** The address a passkey is registered under: the signed-in user's, else the one the page sent. */
function registrationAddress(context: WebAuthnContext): string | undefined {
  return context.registrant?.email || context.email;
}

/** The credential id the browser posted, if it posted one. */
function postedCredentialId(context: WebAuthnContext): string | undefined {
  const id = (context.response as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" ? id : undefined;
}

const refused = (error: WebAuthnRefusal): FlowFailure => ({ error, as: "WebAuthnVerificationError" });
const notVerified = ({ event }: { event: { error: unknown } }): FlowFailure => ({ error: event.error, as: "WebAuthnVerificationError" });
const asItIs = ({ event }: { event: { error: unknown } }): FlowFailure => ({ error: event.error });

export const webauthnMachine = setup({
  types: {
    input: {} as WebAuthnInput,
    context: {} as WebAuthnContext,
    events: {} as WebAuthnCredentialEvent,
    output: {} as WebAuthnOutput,
    emitted: {} as WebAuthnEmitted,
  },
  actors: {
    checkRequestLimit: effect<LimitVerdict, { providerId: string }>("checkRequestLimit"),
    normalizeEmail: effect<string, { email: string }>("normalizeEmail"),
    findSignedInUser: effect<string | undefined, Record<string, never>>("findSignedInUser"),
    findUserByEmail: effect<AdapterUser | null, { email: string }>("findUserByEmail"),
    findUser: effect<AdapterUser | null, { userId: string }>("findUser"),
    listPasskeys: effect<PasskeyDescriptor[], { userId: string }>("listPasskeys"),
    generateRegistrationOptions: effect<
      CeremonyOptions,
      { providerId: string; origin: string; userName: string; userDisplayName: string; excludeCredentials: PasskeyDescriptor[] }
    >("generateRegistrationOptions"),
    generateAuthenticationOptions: effect<
      CeremonyOptions,
      { providerId: string; origin: string; allowCredentials: PasskeyDescriptor[] }
    >("generateAuthenticationOptions"),
    recordChallenge: effect<void, { providerId: string; challenge: string }>("recordChallenge"),
    sealChallenge: effect<SetCookie[], { providerId: string; challenge: CeremonyChallenge }>("sealChallenge"),
    openChallenge: effect<CeremonyChallenge, { providerId: string; sealed?: string }>("openChallenge"),
    consumeChallenge: effect<void, { providerId: string; challenge: string }>("consumeChallenge"),
    findPasskey: effect<AdapterAuthenticator | null, { credentialId: string }>("findPasskey"),
    verifyAuthentication: effect<
      number,
      { providerId: string; origin: string; response: unknown; challenge: string; passkey: AdapterAuthenticator }
    >("verifyAuthentication"),
    updatePasskeyCounter: effect<void, { credentialId: string; counter: number }>("updatePasskeyCounter"),
    verifyRegistration: effect<
      VerifiedCredential,
      { providerId: string; origin: string; response: unknown; challenge: string; email?: string }
    >("verifyRegistration"),
    completeSignIn: signInCompletionMachine,
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberLimit: assign((_, limit: LimitVerdict) => ({ limit })),
    refuseAsLimited: assign(({ context }) => ({ failure: { error: context.limit, as: "RateLimited" as const } })),
    announceLimit: enqueueActions(({ enqueue, context }) => {
      enqueue.emit(rateLimitedEvent(context.providerId, context.limit!));
    }),
    rememberEmail: assign((_, email: string) => ({ email })),
    rememberSignedInUser: assign((_, userId: string | undefined) => (userId ? { currentUserId: userId } : {})),
    rememberAddressOwner: assign((_, owner: AdapterUser | null) => (owner ? { addressOwnerId: owner.id } : {})),
    rememberPasskeys: assign((_, passkeys: PasskeyDescriptor[]) => ({ passkeys })),
    rememberRegistrant: assign((_, user: AdapterUser) => ({ registrant: { email: user.email ?? null, name: user.name ?? null } })),
    chooseCeremony: assign((_, action: WebAuthnAction) => ({ action })),
    rememberOptions: assign((_, options: CeremonyOptions) => ({ options })),
    rememberChallengeCookie: assign((_, cookies: SetCookie[]) => ({ challengeCookies: cookies })),
    takeCredential: assign((_, event: WebAuthnCredentialEvent) => ({
      response: event.response,
      postedAction: event.action,
      callbackUrl: event.callbackUrl,
    })),
    rememberChallenge: assign((_, challenge: CeremonyChallenge) => ({ challenge })),
    rememberPasskey: assign((_, passkey: AdapterAuthenticator) => ({ passkey })),
    rememberNewCounter: assign((_, newCounter: number) => ({ newCounter })),
    rememberPasskeyOwner: assign(({ context }, user: AdapterUser) => ({
      verified: {
        user,
        account: { provider: context.providerId, type: "webauthn" as const, providerAccountId: context.passkey!.providerAccountId },
        storedUser: user,
      },
    })),
    rememberVerified: assign((_, verified: VerifiedCredential) => ({ verified })),
    rememberCompletion: assign((_, done: SignInCompletionOutput) => completionResult(done)),
    announce: enqueueActions(({ enqueue, context }) => context.events.forEach((event) => enqueue.emit(event))),
  },
  guards: {
    withinLimit: (_, verdict: LimitVerdict) => verdict.allowed,
    namesEmail: ({ context }) => context.email !== undefined,
    signedIn: ({ context }) => context.currentUserId !== undefined,
    authenticationRequested: ({ context }) => context.requestedAction === "authenticate",
    registrationRequested: ({ context }) => context.requestedAction === "register",
    // Signed out, the address says whether it is someone's (their passkeys, or a refused registration);
    // signed in, a new passkey joins the signed-in user, and only an authentication asks whose it is.
    addressMatters: ({ context }) =>
      context.email !== undefined && (context.currentUserId === undefined || context.requestedAction === "authenticate"),
    // The owner's passkeys: offered when they authenticate, and telling whether they have any when
    // nothing was asked. A registration needs none of them.
    ownersPasskeysMatter: ({ context }) => context.addressOwnerId !== undefined && context.requestedAction !== "register",
    ownerHasPasskeys: ({ context }) => context.addressOwnerId !== undefined && (context.passkeys?.length ?? 0) > 0,
    // Signed out, a passkey registered under an address someone already has would either fail at the
    // end (AccountNotLinked) or, worse, wait on the account for its owner: refused before a challenge
    // is minted. Signed in, the new passkey joins the signed-in user whatever address the page sent.
    registersTakenAddress: ({ context }) => context.currentUserId === undefined && context.addressOwnerId !== undefined,
    userFound: (_, user: AdapterUser | null) => user !== null,
    passkeyUnknown: (_, passkey: AdapterAuthenticator | null) => passkey === null,
    // A passkey whose user was deleted (and the passkey not with them) signs nobody in.
    passkeyOwnerGone: (_, user: AdapterUser | null) => user === null,
    lacksRegistrationAddress: ({ context }) => !registrationAddress(context),
    // The ceremony belongs to whoever was signed in (or nobody) when its options were made.
    signedInUserChanged: ({ context }, userId: string | undefined) => context.challenge!.userId !== userId,
    // The posted action must be the one the challenge was minted for.
    registering: ({ context }) => context.challenge?.action === "register" && context.postedAction === "register",
    authenticating: ({ context }) => context.challenge?.action === "authenticate" && context.postedAction === "authenticate",
    postedNoCredential: ({ context }) => postedCredentialId(context) === undefined,
    completionSignedIn: (_, done: SignInCompletionOutput) => endedAs(done, "signedIn"),
    completionDiverted: (_, done: SignInCompletionOutput) => endedAs(done, "diverted"),
    completionChallenged: (_, done: SignInCompletionOutput) => endedAs(done, "challenge"),
  },
}).createMachine({
  id: "webauthn",
  context: ({ input }) => ({ ...input, challengeCookies: [], sessionCookies: [], events: [] }),
  initial: "checkingRequestLimit",
  states: {
    // The client's request ceiling, before anything is looked up or a challenge minted.
    checkingRequestLimit: limiterStep(
      "checkRequestLimit",
      ({ context }: { context: WebAuthnContext }) => ({ providerId: context.providerId }),
      "checkingEmail",
      "failed",
    ),
    checkingEmail: {
      always: [{ guard: "namesEmail", target: "normalizingEmail" }, { target: "findingSignedInUser" }],
    },
    normalizingEmail: {
      invoke: {
        src: "normalizeEmail",
        input: ({ context }) => ({ email: context.email! }),
        onDone: { target: "findingSignedInUser", actions: { type: "rememberEmail", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "EmailSignInError" as const }) },
        },
      },
    },
    findingSignedInUser: {
      invoke: {
        src: "findSignedInUser",
        input: {},
        onDone: { target: "checkingAddress", actions: { type: "rememberSignedInUser", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    checkingAddress: {
      always: [{ guard: "addressMatters", target: "findingAddressOwner" }, { target: "choosingCeremony" }],
    },
    findingAddressOwner: {
      invoke: {
        src: "findUserByEmail",
        input: ({ context }) => ({ email: context.email! }),
        onDone: { target: "checkingOwnersPasskeys", actions: { type: "rememberAddressOwner", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    checkingOwnersPasskeys: {
      always: [{ guard: "ownersPasskeysMatter", target: "listingOwnersPasskeys" }, { target: "choosingCeremony" }],
    },
    listingOwnersPasskeys: {
      invoke: {
        src: "listPasskeys",
        input: ({ context }) => ({ userId: context.addressOwnerId! }),
        onDone: { target: "choosingCeremony", actions: { type: "rememberPasskeys", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    // Register or authenticate: what the page asked for; else a signed-in person adds a passkey, an
    // address whose owner has passkeys signs in with one, any other address registers, and with no
    // address at all the browser offers the passkeys it keeps for this site.
    choosingCeremony: {
      always: [
        { guard: "authenticationRequested", target: "generatingAuthenticationOptions" },
        { guard: "registrationRequested", target: "checkingRegistration" },
        { guard: "signedIn", target: "checkingRegistration" },
        { guard: "ownerHasPasskeys", target: "generatingAuthenticationOptions" },
        { guard: "namesEmail", target: "checkingRegistration" },
        { target: "generatingAuthenticationOptions" },
      ],
    },
    checkingRegistration: {
      always: [
        {
          guard: "registersTakenAddress",
          target: "failed",
          actions: { type: "recordFailure", params: { error: undefined, as: "OAuthAccountNotLinked" as const } },
        },
        { guard: "signedIn", target: "findingRegistrant" },
        { target: "checkingRegistrationAddress" },
      ],
    },
    // The signed-in user the passkey joins: their address and name, and the passkeys they have already.
    findingRegistrant: {
      invoke: {
        src: "findUser",
        input: ({ context }) => ({ userId: context.currentUserId! }),
        onDone: [
          {
            guard: { type: "userFound", params: ({ event }) => event.output },
            target: "listingRegistrantsPasskeys",
            actions: { type: "rememberRegistrant", params: ({ event }) => event.output! },
          },
          { target: "checkingRegistrationAddress" },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    listingRegistrantsPasskeys: {
      invoke: {
        src: "listPasskeys",
        input: ({ context }) => ({ userId: context.currentUserId! }),
        onDone: { target: "checkingRegistrationAddress", actions: { type: "rememberPasskeys", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    checkingRegistrationAddress: {
      always: [
        {
          guard: "lacksRegistrationAddress",
          target: "failed",
          actions: { type: "recordFailure", params: refused("noAddressToRegister") },
        },
        { target: "generatingRegistrationOptions" },
      ],
    },
    generatingRegistrationOptions: {
      entry: { type: "chooseCeremony", params: "register" },
      invoke: {
        src: "generateRegistrationOptions",
        input: ({ context }) => ({
          providerId: context.providerId,
          origin: context.request.origin,
          userName: registrationAddress(context)!,
          userDisplayName: context.registrant?.name ?? registrationAddress(context)!,
          excludeCredentials: context.passkeys ?? [],
        }),
        onDone: { target: "recordingChallenge", actions: { type: "rememberOptions", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    generatingAuthenticationOptions: {
      entry: { type: "chooseCeremony", params: "authenticate" },
      invoke: {
        src: "generateAuthenticationOptions",
        input: ({ context }) => ({
          providerId: context.providerId,
          origin: context.request.origin,
          allowCredentials: context.passkeys ?? [],
        }),
        onDone: { target: "recordingChallenge", actions: { type: "rememberOptions", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    // Recorded in the store, so the challenge works once even if its cookie is replayed.
    recordingChallenge: {
      invoke: {
        src: "recordChallenge",
        input: ({ context }) => ({ providerId: context.providerId, challenge: context.options!.challenge }),
        onDone: { target: "sealingChallenge" },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    sealingChallenge: {
      invoke: {
        src: "sealChallenge",
        input: ({ context }) => {
          const email = context.action === "register" ? registrationAddress(context) : undefined;
          return {
            providerId: context.providerId,
            challenge: {
              value: context.options!.challenge,
              action: context.action!,
              ...(email ? { email } : {}),
              ...(context.currentUserId ? { userId: context.currentUserId } : {}),
            },
          };
        },
        onDone: { target: "awaitingCredential", actions: { type: "rememberChallengeCookie", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: asItIs } },
      },
    },
    // The ceremony runs in the browser: the flow rests here, its challenge in a cookie and the store.
    awaitingCredential: {
      on: {
        "credential.received": { target: "openingChallenge", actions: { type: "takeCredential", params: ({ event }) => event } },
      },
    },
    openingChallenge: {
      invoke: {
        src: "openChallenge",
        input: ({ context }) => ({
          providerId: context.providerId,
          ...(context.sealedChallenge !== undefined ? { sealed: context.sealedChallenge } : {}),
        }),
        onDone: { target: "consumingChallenge", actions: { type: "rememberChallenge", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    consumingChallenge: {
      invoke: {
        src: "consumeChallenge",
        input: ({ context }) => ({ providerId: context.providerId, challenge: context.challenge!.value }),
        onDone: { target: "checkingCeremonyUser" },
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    checkingCeremonyUser: {
      invoke: {
        src: "findSignedInUser",
        input: {},
        onDone: [
          {
            guard: { type: "signedInUserChanged", params: ({ event }) => event.output },
            target: "failed",
            actions: { type: "recordFailure", params: refused("signedInUserChanged") },
          },
          { target: "choosingVerification", actions: { type: "rememberSignedInUser", params: ({ event }) => event.output } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    choosingVerification: {
      always: [
        { guard: "authenticating", target: "checkingPostedCredential" },
        { guard: "registering", target: "verifyingRegistration" },
        { target: "failed", actions: { type: "recordFailure", params: { error: undefined, as: "WebAuthnVerificationError" as const } } },
      ],
    },
    checkingPostedCredential: {
      always: [
        { guard: "postedNoCredential", target: "failed", actions: { type: "recordFailure", params: refused("noCredentialPosted") } },
        { target: "findingPasskey" },
      ],
    },
    findingPasskey: {
      invoke: {
        src: "findPasskey",
        input: ({ context }) => ({ credentialId: postedCredentialId(context)! }),
        onDone: [
          {
            guard: { type: "passkeyUnknown", params: ({ event }) => event.output },
            target: "failed",
            actions: { type: "recordFailure", params: refused("unknownPasskey") },
          },
          { target: "verifyingAuthentication", actions: { type: "rememberPasskey", params: ({ event }) => event.output! } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    // Signature, origin, RP ID, challenge, user verification, and a counter that must not go back
    // (a cloned authenticator): the verifier checks them all against the stored passkey.
    verifyingAuthentication: {
      invoke: {
        src: "verifyAuthentication",
        input: ({ context }) => ({
          providerId: context.providerId,
          origin: context.request.origin,
          response: context.response,
          challenge: context.challenge!.value,
          passkey: context.passkey!,
        }),
        onDone: { target: "updatingCounter", actions: { type: "rememberNewCounter", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    updatingCounter: {
      invoke: {
        src: "updatePasskeyCounter",
        input: ({ context }) => ({ credentialId: context.passkey!.credentialID, counter: context.newCounter! }),
        onDone: { target: "findingPasskeyOwner" },
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    findingPasskeyOwner: {
      invoke: {
        src: "findUser",
        input: ({ context }) => ({ userId: context.passkey!.userId }),
        onDone: [
          {
            guard: { type: "passkeyOwnerGone", params: ({ event }) => event.output },
            target: "failed",
            actions: { type: "recordFailure", params: refused("passkeyOwnerGone") },
          },
          { target: "completing", actions: { type: "rememberPasskeyOwner", params: ({ event }) => event.output! } },
        ],
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    verifyingRegistration: {
      invoke: {
        src: "verifyRegistration",
        input: ({ context }) => ({
          providerId: context.providerId,
          origin: context.request.origin,
          response: context.response,
          challenge: context.challenge!.value,
          ...(context.challenge!.email ? { email: context.challenge!.email } : {}),
        }),
        onDone: { target: "completing", actions: { type: "rememberVerified", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "recordFailure", params: notVerified } },
      },
    },
    completing: completionStep(
      ({ context }: { context: WebAuthnContext }) => ({
        provider: { id: context.providerId, type: "webauthn" as const, allowDangerousEmailAccountLinking: false },
        user: context.verified!.user,
        account: context.verified!.account,
        emailVerified: false,
        ...(context.currentUserId ? { currentUserId: context.currentUserId } : {}),
        hasAdapter: true,
        callbackUrl: context.callbackUrl ?? context.request.origin,
        request: context.request,
        ...(context.twoFactor ? { twoFactor: context.twoFactor } : {}),
      }),
      "failed",
    ),
    ...completionEnds<WebAuthnContext>((context) => context.challengeCookies),
    limited: {
      type: "final",
      entry: "announceLimit",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.challengeCookies }),
    },
    failed: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, cookies: context.challengeCookies }),
    },
  },
  output: ({ event }) => event.output as WebAuthnOutput,
});
