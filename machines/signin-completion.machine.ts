/**
 * Sign-in completion: the part every provider type shares once it knows who the person is.
 * The `signIn` callback may veto or divert; with an adapter the account is looked up, linked or
 * created under the account-linking rules; then a session is issued for either strategy.
 * Credentials sign-ins skip the account steps (their account is synthetic).
 *
 * Pre-hijacked accounts (Sudhodanan & Paverd, USENIX Security 2022): anyone can create a user under an
 * address they do not own (a passkey registered signed out, an OAuth account whose provider does not
 * verify addresses) and wait for the owner. So when someone proves an address (an email link, or a
 * provider that asserts it verified and may link by email) that belongs to a user nobody verified, that
 * user is claimed for the prover: the same user and id (the application keys its own rows by it, and
 * most such users are simply the owner's, as Auth.js stores every OAuth-created user unverified), the
 * address marked verified, and everything attached before the proof detached in one step (linked
 * accounts, passkeys, database sessions). JWT sessions issued while the address was unverified carry
 * their sign-in time and stop opening once the address is verified later (src/session/jwt-session.ts).
 * No sign-in deletes or replaces a user.
 *
 * The completion ends the sign-in: once the session is issued, the requested callback URL is judged
 * (`pages.newUser` for a first sign-in), so its outcome is where the browser goes and with what.
 *
 * The second factor (issue 28) is a gate every path crosses once it knows which stored user the sign-in
 * is for and before it writes anything (no account linked or updated, no user claimed, no address
 * marked verified, no session, no `signIn` event): `checkingSecondFactor`. A user with an active second
 * factor ends the completion in `awaitingSecondFactor` with the outcome "challenge": `src/` seals what
 * the completion needs to resume into a short-lived cookie and the person proves the factor; the
 * completion then runs again with `twoFactor.proved` set, and the gate lets it through. The signIn
 * callback already allowed this sign-in before the challenge, so the resumed run does not ask it again.
 * `settlingSecondFactor` repeats the decision `checkingOwnership`/`checkingEmailLink` made (the same
 * pure guards over an unchanged context), so one gate serves every path. A brand-new user has no
 * factor and crosses no gate, unless a `required` policy is configured (`twoFactor.policy`). Without
 * `twoFactor` in the input (no such configuration) the gate is a guard over the input: no adapter read.
 *
 * Under a `required` policy the gate may learn that the user must enroll ("enroll"): the completion
 * then ends in `awaitingEnrollment` (outcome "challenge" to its parent, so every parent handles it as
 * the challenge) with the same pending cookie, which `src/` extends with a new app's secret. The run
 * resumed once that app is confirmed carries it in `twoFactor.enrolled`: after everything else the
 * sign-in writes (a new user is created only then), `storingEnrolledFactor` stores it, and the session
 * that follows records `otp` as proved.
 *
 * The flow's events (createUser, linkAccount, signIn) are collected as data and handed to the
 * parent in the output, which emits them: a child's `emit` would not reach the parent's listeners.
 * `completionStep`, `completionGuards` and `completionActions` below are the parent's side of it.
 */
import { assign, setup } from "xstate";
import type { Account, AdapterUser, ClaimedUser, DetachedCredentials, Profile, ProviderType, User } from "../src/types.js";
import { effect, type FlowFailure, type SetCookie, type RequestFacts } from "./shared.js";

export interface SignInCompletionInput {
  provider: { id: string; type: ProviderType; allowDangerousEmailAccountLinking: boolean };
  /** The user as the provider describes them (mapped profile, or what `authorize` returned). */
  user: User;
  account: Account;
  profile?: Profile;
  /** Whether the provider asserted that `user.email` is verified. */
  emailVerified: boolean;
  credentials?: Record<string, unknown>;
  /** The id of the user already signed in on this browser, if any: a new account links to them. */
  currentUserId?: string;
  /** Whether an adapter stores users and accounts. */
  hasAdapter: boolean;
  /**
   * Whether the adapter can update a linked account (OAuth/OIDC): a returning person's new tokens then
   * replace the stored ones, so a refresh or a provider logout later uses this sign-in's tokens.
   */
  updatesAccountTokens?: boolean;
  /** Where the person asked to go afterwards; untrusted until `resolveRedirect` has judged it. */
  callbackUrl: string;
  /** The request the sign-in completes for, as plain facts (its live request reaches only the effects). */
  request: RequestFacts;
  /** The second-factor step, when a `twoFactor` configuration is set; absent, the completion checks none. */
  twoFactor?: TwoFactorStep;
}

/** What the completion knows of the second factor for this sign-in (RFC 8176 `amr` values). */
export interface TwoFactorStep {
  /** What the first factor proved: `pwd` for a password, `hwk`/`swk` for a passkey, none for a link or a provider. */
  firstFactor: string[];
  /** The first factor counts as both (a passkey with user verification, `passkeyCountsAsBoth`). */
  countsAsBoth?: boolean;
  /** Set when the sign-in resumes after its challenge: what the second factor proved (`otp`, `hwk`, ...). */
  proved?: string[];
  /** Set by the gate when this browser is remembered for the user: the challenge is skipped, nothing is proved. */
  remembered?: boolean;
  /**
   * A `required` policy is configured: a user without an active factor may have to enroll one before
   * any session, so even a brand-new user is asked about (the policy, not the store) before creation.
   */
  policy?: boolean;
  /**
   * Set when the sign-in resumes after an enrollment it led to: the authenticator app the person just
   * confirmed (its secret sealed, the time step of the code that confirmed it, spent), stored for the
   * user right before the session is issued.
   */
  enrolled?: EnrolledFactor;
}

/** An authenticator app confirmed during a sign-in, to be stored as the user's active factor. */
export interface EnrolledFactor {
  /** The shared secret, sealed with the configured secret. */
  secret: string;
  /** The RFC 6238 time step of the code that confirmed it (used up: the same code works no more). */
  step: number;
}

/**
 * What the gate learns of the stored user: an active factor to prove ("challenge"), an active factor
 * this browser is remembered for ("remembered": not asked, and not counted as proved), none while the
 * `required` policy wants one ("enroll"), or nothing to ask for ("none").
 */
export type SecondFactorStatus = "challenge" | "remembered" | "enroll" | "none";

/**
 * The `amr` value of a sign-in whose second factor was remembered (`twoFactor.rememberBrowser`). Not an
 * RFC 8176 registered value on purpose: it is not `otp` or `mfa`, so it never counts as a proof.
 */
export const REMEMBERED_AMR = "remembered";

export type CompletionEvent =
  | ({ type: "credentialsDetached"; user: AdapterUser; account: Account } & DetachedCredentials)
  | { type: "createUser"; user: AdapterUser }
  | { type: "linkAccount"; user: AdapterUser; account: Account; profile: User }
  | { type: "signIn"; user: User; account: Account; profile?: Profile; isNewUser: boolean };

export interface SignInCompletionContext extends SignInCompletionInput {
  /** The stored user this sign-in resolved to (adapter only). */
  storedUser?: AdapterUser;
  /** The stored user who already has the sign-in's email address. */
  emailUser?: AdapterUser;
  isNewUser: boolean;
  cookies: SetCookie[];
  redirectTo?: string;
  failure?: FlowFailure;
  events: CompletionEvent[];
}

export type SignInCompletionOutput =
  | { outcome: "signedIn"; user: User; isNewUser: boolean; redirectTo: string; cookies: SetCookie[]; events: CompletionEvent[] }
  | { outcome: "diverted"; redirectTo: string; events: CompletionEvent[] }
  | { outcome: "challenge"; userId: string; redirectTo: string; cookies: SetCookie[]; events: CompletionEvent[] }
  | { outcome: "refused"; failure: FlowFailure; events: CompletionEvent[] };

/**
 * What `src/` seals to resume a sign-in after its challenge: the completion's input, for the stored user
 * `userId` ("" for a user the sign-in would create). `enroll`: the person must first enroll a factor.
 */
export interface PendingSignIn {
  userId: string;
  input: SignInCompletionInput;
  enroll?: boolean;
}

type SignInResult = boolean | string;

/**
 * The stored user the gate is for: the account's user, the signed-in user a new account links to, or
 * the user who has the address; without stored users (credentials), the user `authorize` returned.
 */
function gatedUserId(context: SignInCompletionContext): string {
  if (!(context.hasAdapter && context.provider.type !== "credentials")) return String(context.user.id ?? "");
  return context.storedUser?.id ?? context.emailUser?.id ?? context.currentUserId ?? "";
}

/**
 * Whether the sign-in would create a new user (nobody stored to sign in as, nobody signed in here to
 * link to, nobody who has the address): at the gate, an address owner who may not be linked has
 * already ended the completion (notLinked).
 */
function createsNewUser(context: SignInCompletionContext): boolean {
  return (
    context.hasAdapter &&
    context.provider.type !== "credentials" &&
    context.storedUser === undefined &&
    context.currentUserId === undefined &&
    context.emailUser === undefined
  );
}

/** The completion's input as its context holds it (what the resumed run starts from). */
function completionInputOf(context: SignInCompletionContext): SignInCompletionInput {
  const { storedUser: _s, emailUser: _e, isNewUser: _n, cookies: _c, redirectTo: _r, failure: _f, events: _v, ...input } = context;
  return input;
}

/**
 * RFC 8176 methods this sign-in proved: the first factor's, then the second's; `mfa` when both are
 * there (or one factor counts as both).
 */
export function amrOf(step: TwoFactorStep): string[] {
  const methods = [...new Set([...step.firstFactor, ...(step.proved ?? [])])];
  if (step.countsAsBoth || step.proved?.length) methods.push("mfa");
  else if (step.remembered) methods.push(REMEMBERED_AMR);
  return methods;
}

/** An effect that throws ends the completion in `failed`, keeping its error. */
const failing = {
  target: "failed" as const,
  actions: { type: "recordFailure" as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
};

export const signInCompletionMachine = setup({
  types: {
    input: {} as SignInCompletionInput,
    context: {} as SignInCompletionContext,
    output: {} as SignInCompletionOutput,
  },
  actors: {
    findUserByAccount: effect<AdapterUser | null, { account: Account }>("findUserByAccount"),
    findSecondFactor: effect<SecondFactorStatus, { userId: string; user: User; newUser: boolean }>("findSecondFactor"),
    storeEnrolledFactor: effect<void, { userId: string; enrolled: EnrolledFactor }>("storeEnrolledFactor"),
    holdPendingSignIn: effect<{ cookies: SetCookie[]; redirectTo: string }, PendingSignIn>("holdPendingSignIn"),
    signInCallback: effect<
      SignInResult,
      { user: User; account: Account; profile?: Profile; credentials?: Record<string, unknown> }
    >("signInCallback"),
    findUserByEmail: effect<AdapterUser | null, { email: string }>("findUserByEmail"),
    linkAccount: effect<AdapterUser, { userId: string; account: Account }>("linkAccount"),
    claimUnverifiedUser: effect<ClaimedUser, { userId: string; providerType: ProviderType }>("claimUnverifiedUser"),
    createUserWithAccount: effect<AdapterUser, { user: User; account: Account; emailVerified: boolean }>(
      "createUserWithAccount",
    ),
    markEmailVerified: effect<AdapterUser, { userId: string }>("markEmailVerified"),
    updateAccountTokens: effect<void, { account: Account }>("updateAccountTokens"),
    issueSession: effect<
      SetCookie[],
      { user: User; account: Account; profile?: Profile; isNewUser: boolean; request: RequestFacts; amr?: string[] }
    >("issueSession"),
    resolveRedirect: effect<string, { url: string; isNewUser: boolean; request: RequestFacts }>("resolveRedirect"),
  },
  actions: {
    recordFailure: assign((_, params: FlowFailure) => ({ failure: params })),
    rememberStoredUser: assign((_, storedUser: AdapterUser | null) => (storedUser ? { storedUser } : {})),
    rememberEmailUser: assign((_, emailUser: AdapterUser | null) => (emailUser ? { emailUser } : {})),
    rememberRedirect: assign((_, redirectTo: string) => ({ redirectTo })),
    rememberCookies: assign((_, cookies: SetCookie[]) => ({ cookies })),
    rememberVerifiedUser: assign((_, storedUser: AdapterUser) => ({ storedUser })),
    noteRememberedBrowser: assign(({ context }) => ({ twoFactor: { ...context.twoFactor!, remembered: true } })),
    rememberChallenge: assign((_, held: { cookies: SetCookie[]; redirectTo: string }) => ({
      cookies: held.cookies,
      redirectTo: held.redirectTo,
    })),
    // The claimed user (address now verified) is who the proving account is linked to and signs in.
    noteClaimedUser: assign(({ context }, { user, ...detached }: ClaimedUser) => ({
      emailUser: user,
      events: [...context.events, { type: "credentialsDetached" as const, user, account: context.account, ...detached }],
    })),
    noteLinkedAccount: assign(({ context }, user: AdapterUser) => ({
      storedUser: user,
      events: [...context.events, { type: "linkAccount" as const, user, account: context.account, profile: context.user }],
    })),
    noteCreatedUser: assign(({ context }, user: AdapterUser) => ({
      storedUser: user,
      isNewUser: true,
      events: [
        ...context.events,
        { type: "createUser" as const, user },
        { type: "linkAccount" as const, user, account: context.account, profile: context.user },
      ],
    })),
    noteSignIn: assign(({ context }) => ({
      events: [
        ...context.events,
        {
          type: "signIn" as const,
          user: context.storedUser ?? context.user,
          account: context.account,
          ...(context.profile ? { profile: context.profile } : {}),
          isNewUser: context.isNewUser,
        },
      ],
    })),
  },
  guards: {
    // The resumed run after a passed challenge: its signIn callback allowed the sign-in the first time.
    allowedBeforeChallenge: ({ context }) => context.twoFactor?.proved !== undefined,
    // No twoFactor configuration, a factor already proved, a first factor that proves two, or a new
    // user (no factor yet) without a `required` policy: no look-up.
    secondFactorSettled: ({ context }) =>
      context.twoFactor === undefined ||
      context.twoFactor.proved !== undefined ||
      context.twoFactor.countsAsBoth === true ||
      (createsNewUser(context) && context.twoFactor.policy !== true),
    hasSecondFactor: (_, status: SecondFactorStatus) => status === "challenge",
    // The user has an active factor and this browser passed it before, with "remember this browser".
    rememberedBrowser: (_, status: SecondFactorStatus) => status === "remembered",
    mustEnroll: (_, status: SecondFactorStatus) => status === "enroll",
    // The resumed run of a sign-in that led the person to enrollment: the confirmed app is stored first.
    enrollsFactor: ({ context }) => context.twoFactor?.enrolled !== undefined,
    createsUser: ({ context }) => createsNewUser(context),
    looksUpAccounts: ({ context }) => context.hasAdapter && context.provider.type !== "credentials",
    signInAllowed: (_, result: SignInResult) => result === true,
    // An empty string is no destination: it refuses like `false`.
    signInDiverted: (_, result: SignInResult) => typeof result === "string" && result.length > 0,
    storesUsers: ({ context }) => context.hasAdapter && context.provider.type !== "credentials",
    // The same, negated as a plain guard (the direct runner takes named guards only: src/flows/direct.ts).
    storesNoUsers: ({ context }) => !(context.hasAdapter && context.provider.type !== "credentials"),
    accountKnown: ({ context }) => context.storedUser !== undefined,
    keepsNewTokens: ({ context }) =>
      context.updatesAccountTokens === true && (context.provider.type === "oauth" || context.provider.type === "oidc"),
    accountOfAnotherSignedInUser: ({ context }) =>
      context.currentUserId !== undefined && context.storedUser !== undefined && context.storedUser.id !== context.currentUserId,
    alreadySignedIn: ({ context }) => context.currentUserId !== undefined,
    hasEmail: ({ context }) => typeof context.user.email === "string" && context.user.email.length > 0,
    emailTaken: ({ context }) => context.emailUser !== undefined,
    // Proving an address that a user nobody verified has: an email link, or a provider that opted in to
    // linking by email and asserts the address verified. The user is the prover's, but what is attached
    // to it may be a squatter's (a passkey, an account, a session): it is detached, not handed over.
    // Checked before emailLinkAllowed, which would sign the prover in with all of that still attached.
    provesUnverifiedAddress: ({ context }) =>
      context.emailUser !== undefined &&
      context.emailUser.emailVerified == null &&
      (context.provider.type === "email" ||
        ((context.provider.type === "oauth" || context.provider.type === "oidc") &&
          context.provider.allowDangerousEmailAccountLinking &&
          context.emailVerified)),
    // An email link proves the address, so it signs in as the (verified: see provesUnverifiedAddress) user
    // who has it. Otherwise: opt-in per provider, and never onto an address nobody verified, nor from a
    // provider that says it is unverified.
    emailLinkAllowed: ({ context }) =>
      context.emailUser !== undefined &&
      (context.provider.type === "email" ||
        (context.provider.allowDangerousEmailAccountLinking && context.emailUser.emailVerified != null && context.emailVerified)),
    // A followed email link verifies the address of the user it signs in, if nobody had before — and
    // only when that user's address is the one the link proved (not after an address change, say).
    // So does a provider that asserts the address verified, signing in (or linking) the user who has
    // it: that person holds the account the provider vouches for. Users Auth.js created through OAuth
    // (always stored unverified) become verified this way on their next sign-in.
    emailNowVerified: ({ context }) =>
      (context.provider.type === "email" ||
        ((context.provider.type === "oauth" || context.provider.type === "oidc") && context.emailVerified === true)) &&
      context.storedUser !== undefined &&
      context.storedUser.emailVerified == null &&
      context.storedUser.email === context.user.email,
  },
}).createMachine({
  id: "signInCompletion",
  context: ({ input }) => ({ ...input, isNewUser: false, cookies: [], events: [] }),
  initial: "start",
  states: {
    start: {
      always: [{ guard: "looksUpAccounts", target: "lookingUpAccount" }, { target: "askingSignIn" }],
    },
    lookingUpAccount: {
      invoke: {
        src: "findUserByAccount",
        input: ({ context }) => ({ account: context.account }),
        onDone: { target: "askingSignIn", actions: { type: "rememberStoredUser", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    askingSignIn: {
      always: [{ guard: "allowedBeforeChallenge", target: "resolvingUser" }, { target: "checkingSignIn" }],
    },
    checkingSignIn: {
      invoke: {
        src: "signInCallback",
        input: ({ context }) => ({
          user: context.storedUser ?? context.user,
          account: context.account,
          ...(context.profile ? { profile: context.profile } : {}),
          ...(context.credentials ? { credentials: context.credentials } : {}),
        }),
        onDone: [
          { guard: { type: "signInAllowed", params: ({ event }) => event.output }, target: "resolvingUser" },
          {
            guard: { type: "signInDiverted", params: ({ event }) => event.output },
            target: "diverted",
            actions: { type: "rememberRedirect", params: ({ event }) => event.output as string },
          },
          { target: "denied" },
        ],
        onError: {
          target: "denied",
          actions: { type: "recordFailure", params: ({ event }) => ({ error: event.error, as: "AccessDenied" as const }) },
        },
      },
    },
    resolvingUser: {
      always: [
        { guard: { type: "storesUsers" }, target: "checkingOwnership" },
        { target: "checkingSecondFactor" },
      ],
    },
    checkingOwnership: {
      always: [
        { guard: "accountOfAnotherSignedInUser", target: "notLinked" },
        { guard: "accountKnown", target: "checkingSecondFactor" },
        { guard: "alreadySignedIn", target: "checkingSecondFactor" },
        { guard: "hasEmail", target: "lookingUpEmail" },
        { target: "checkingSecondFactor" },
      ],
    },
    // The gate: the sign-in's stored user is known and nothing is written yet. A claimed unverified
    // user is gated too: a factor enrolled on a user is never skipped, whoever proves its address. A
    // user the sign-in would create has no factor: it is asked about only under a `required` policy.
    checkingSecondFactor: {
      always: [{ guard: "secondFactorSettled", target: "settlingSecondFactor" }, { target: "lookingUpSecondFactor" }],
    },
    lookingUpSecondFactor: {
      invoke: {
        src: "findSecondFactor",
        input: ({ context }) => ({
          userId: gatedUserId(context),
          user: context.storedUser ?? context.emailUser ?? context.user,
          newUser: createsNewUser(context),
        }),
        onDone: [
          { guard: { type: "hasSecondFactor", params: ({ event }) => event.output }, target: "holdingPendingSignIn" },
          {
            guard: { type: "rememberedBrowser", params: ({ event }) => event.output },
            target: "settlingSecondFactor",
            actions: "noteRememberedBrowser",
          },
          { guard: { type: "mustEnroll", params: ({ event }) => event.output }, target: "holdingPendingEnrollment" },
          { target: "settlingSecondFactor" },
        ],
        // A look-up that fails denies: the sign-in never goes on without knowing (fails closed).
        onError: failing,
      },
    },
    // What the resumed run needs, sealed by src/ (input minus what only the first run uses).
    holdingPendingSignIn: {
      invoke: {
        src: "holdPendingSignIn",
        input: ({ context }) => ({ userId: gatedUserId(context), input: completionInputOf(context) }),
        onDone: { target: "awaitingSecondFactor", actions: { type: "rememberChallenge", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    // A user who must have a factor and has none: the same pending sign-in, marked for enrollment (src/
    // adds the new app's secret to it); the person confirms an app before anything is written.
    holdingPendingEnrollment: {
      invoke: {
        src: "holdPendingSignIn",
        input: ({ context }) => ({ userId: gatedUserId(context), input: completionInputOf(context), enroll: true }),
        onDone: { target: "awaitingEnrollment", actions: { type: "rememberChallenge", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    // The same decision checkingOwnership and checkingEmailLink made, now that the gate is passed.
    settlingSecondFactor: {
      always: [
        { guard: "storesNoUsers", target: "checkingEnrollment" },
        { guard: "accountKnown", target: "checkingTokens" },
        { guard: "provesUnverifiedAddress", target: "claimingUnverifiedUser" },
        { guard: "emailLinkAllowed", target: "linkingByEmail" },
        { guard: "createsUser", target: "creatingUser" },
        { target: "linkingToCurrentUser" },
      ],
    },
    checkingTokens: {
      always: [{ guard: "keepsNewTokens", target: "updatingAccountTokens" }, { target: "verifyingEmail" }],
    },
    updatingAccountTokens: {
      invoke: {
        src: "updateAccountTokens",
        input: ({ context }) => ({ account: context.account }),
        onDone: { target: "verifyingEmail" },
        onError: failing,
      },
    },
    linkingToCurrentUser: {
      invoke: {
        src: "linkAccount",
        input: ({ context }) => ({ userId: context.currentUserId!, account: context.account }),
        onDone: { target: "verifyingEmail", actions: { type: "noteLinkedAccount", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    lookingUpEmail: {
      invoke: {
        src: "findUserByEmail",
        input: ({ context }) => ({ email: context.user.email! }),
        onDone: { target: "checkingEmailLink", actions: { type: "rememberEmailUser", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    checkingEmailLink: {
      always: [
        { guard: "provesUnverifiedAddress", target: "checkingSecondFactor" },
        { guard: "emailLinkAllowed", target: "checkingSecondFactor" },
        { guard: "emailTaken", target: "notLinked" },
        { target: "checkingSecondFactor" },
      ],
    },
    linkingByEmail: {
      invoke: {
        src: "linkAccount",
        input: ({ context }) => ({ userId: context.emailUser!.id, account: context.account }),
        onDone: { target: "verifyingEmail", actions: { type: "noteLinkedAccount", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    // The user stays (same id: the application's rows stay theirs); what was attached before the proof
    // goes in one adapter step, the address is marked verified, then the proving account is linked.
    // An adapter that cannot claim refuses the proof (its effect throws): never a deletion instead.
    claimingUnverifiedUser: {
      invoke: {
        src: "claimUnverifiedUser",
        input: ({ context }) => ({ userId: context.emailUser!.id, providerType: context.provider.type }),
        onDone: { target: "linkingByEmail", actions: { type: "noteClaimedUser", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    creatingUser: {
      invoke: {
        src: "createUserWithAccount",
        input: ({ context }) => ({ user: context.user, account: context.account, emailVerified: context.emailVerified }),
        onDone: { target: "checkingEnrollment", actions: { type: "noteCreatedUser", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    verifyingEmail: {
      always: [{ guard: "emailNowVerified", target: "markingEmailVerified" }, { target: "checkingEnrollment" }],
    },
    markingEmailVerified: {
      invoke: {
        src: "markEmailVerified",
        input: ({ context }) => ({ userId: context.storedUser!.id }),
        onDone: { target: "checkingEnrollment", actions: { type: "rememberVerifiedUser", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    // Everything the sign-in writes is written; an app confirmed on the way becomes the user's factor
    // before the session that says it was proved.
    checkingEnrollment: {
      always: [{ guard: "enrollsFactor", target: "storingEnrolledFactor" }, { target: "issuingSession" }],
    },
    storingEnrolledFactor: {
      invoke: {
        src: "storeEnrolledFactor",
        input: ({ context }) => ({ userId: String((context.storedUser ?? context.user).id ?? ""), enrolled: context.twoFactor!.enrolled! }),
        onDone: { target: "issuingSession" },
        onError: failing,
      },
    },
    issuingSession: {
      invoke: {
        src: "issueSession",
        input: ({ context }) => ({
          user: context.storedUser ?? context.user,
          account: context.account,
          ...(context.profile ? { profile: context.profile } : {}),
          isNewUser: context.isNewUser,
          request: context.request,
          ...(context.twoFactor ? { amr: amrOf(context.twoFactor) } : {}),
        }),
        onDone: { target: "resolvingRedirect", actions: { type: "rememberCookies", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    // A redirect callback that throws ends the sign-in refused: its events are never announced.
    resolvingRedirect: {
      invoke: {
        src: "resolveRedirect",
        input: ({ context }) => ({ url: context.callbackUrl, isNewUser: context.isNewUser, request: context.request }),
        onDone: { target: "signedIn", actions: { type: "rememberRedirect", params: ({ event }) => event.output } },
        onError: failing,
      },
    },
    signedIn: {
      type: "final",
      entry: "noteSignIn",
      output: ({ context }) => ({
        outcome: "signedIn",
        user: context.storedUser ?? context.user,
        isNewUser: context.isNewUser,
        redirectTo: context.redirectTo!,
        cookies: context.cookies,
        events: context.events,
      }),
    },
    diverted: {
      type: "final",
      output: ({ context }) => ({ outcome: "diverted", redirectTo: context.redirectTo!, events: context.events }),
    },
    // Nothing was written: no events. The challenge page is where the browser goes, with the pending cookie.
    awaitingSecondFactor: {
      type: "final",
      output: ({ context }) => ({
        outcome: "challenge",
        userId: gatedUserId(context),
        redirectTo: context.redirectTo!,
        cookies: context.cookies,
        events: [],
      }),
    },
    // Nothing was written either: the browser goes to enroll an app, with the pending cookie.
    awaitingEnrollment: {
      type: "final",
      output: ({ context }) => ({
        outcome: "challenge",
        userId: gatedUserId(context),
        redirectTo: context.redirectTo!,
        cookies: context.cookies,
        events: [],
      }),
    },
    denied: {
      type: "final",
      output: ({ context }) => ({
        outcome: "refused",
        failure: context.failure ?? { error: undefined, as: "AccessDenied" },
        events: context.events,
      }),
    },
    notLinked: {
      type: "final",
      output: ({ context }) => ({
        outcome: "refused",
        failure: { error: undefined, as: "OAuthAccountNotLinked" },
        events: context.events,
      }),
    },
    failed: {
      type: "final",
      output: ({ context }) => ({ outcome: "refused", failure: context.failure!, events: context.events }),
    },
  },
  output: ({ event }) => event.output as SignInCompletionOutput,
});

/** What a parent keeps of its completion: the session cookies, where to go, or why not, and what to announce. */
export interface CompletionResult {
  sessionCookies: SetCookie[];
  redirectTo?: string;
  failure?: FlowFailure;
  /** What the completion reported, announced on entry to the parent's `signedIn`. */
  events: CompletionEvent[];
}

/**
 * What a parent keeps of its completion's outcome (its action `rememberCompletion`). A parent's
 * `announce`, on entry to its `signedIn`, emits the kept events: only once the sign-in has really
 * succeeded. Its guards `completionSignedIn` and `completionDiverted` test `endedAs`: one named edge
 * each in its diagram. (Parents name these inline: XState infers a setup's types only from
 * context-sensitive implementations.)
 */
export function completionResult(done: SignInCompletionOutput): Partial<CompletionResult> {
  if (done.outcome === "signedIn") return { sessionCookies: done.cookies, redirectTo: done.redirectTo, events: done.events };
  // The pending sign-in's cookie is carried where the session's would be; nothing is announced.
  if (done.outcome === "challenge") return { sessionCookies: done.cookies, redirectTo: done.redirectTo };
  return done.outcome === "diverted" ? { redirectTo: done.redirectTo } : { failure: done.failure };
}

/** Whether the completion ended as `outcome`. */
export function endedAs(done: SignInCompletionOutput, outcome: SignInCompletionOutput["outcome"]): boolean {
  return done.outcome === outcome;
}

const doneOutput = ({ event }: { event: { output: SignInCompletionOutput } }) => event.output;

/**
 * A parent's one completion state: it invokes `completeSignIn` (the parent names this machine so in its
 * `setup({ actors })`) with `input`, and goes on to the parent's `signedIn`, `challenged` (a second
 * factor is due) or `diverted` final state, or to `refused` (the completion's refusal, or an error it
 * stopped with).
 */
export function completionStep<Context, Refused extends string>(
  input: (args: { context: Context }) => SignInCompletionInput,
  refused: Refused,
) {
  return {
    invoke: {
      src: "completeSignIn" as const,
      input,
      onDone: [
        {
          guard: { type: "completionSignedIn" as const, params: doneOutput },
          target: "signedIn" as const,
          actions: { type: "rememberCompletion" as const, params: doneOutput },
        },
        {
          guard: { type: "completionChallenged" as const, params: doneOutput },
          target: "challenged" as const,
          actions: { type: "rememberCompletion" as const, params: doneOutput },
        },
        {
          guard: { type: "completionDiverted" as const, params: doneOutput },
          target: "diverted" as const,
          actions: { type: "rememberCompletion" as const, params: doneOutput },
        },
        { target: refused, actions: { type: "rememberCompletion" as const, params: doneOutput } },
      ],
      onError: {
        target: refused,
        actions: { type: "recordFailure" as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
      },
    },
  };
}

/**
 * A parent's `signedIn`, `challenged` and `diverted` final states: signed in, it announces the
 * completion's events and sets its session cookies after the cookies the flow carries (`carried`,
 * e.g. clearing its single-use checks); challenged, it sets the pending sign-in's cookie the same way
 * and announces nothing; diverted, it sets only the carried ones (none when the flow carries none).
 */
export function completionEnds<Context extends CompletionResult>(carried?: (context: Context) => SetCookie[]) {
  const kept = (context: Context) => (carried ? { cookies: carried(context) } : {});
  return {
    signedIn: {
      type: "final" as const,
      entry: "announce" as const,
      output: ({ context }: { context: Context }) => ({
        outcome: "signedIn" as const,
        redirectTo: context.redirectTo!,
        cookies: carried ? [...carried(context), ...context.sessionCookies] : context.sessionCookies,
      }),
    },
    challenged: {
      type: "final" as const,
      output: ({ context }: { context: Context }) => ({
        outcome: "challenged" as const,
        redirectTo: context.redirectTo!,
        cookies: carried ? [...carried(context), ...context.sessionCookies] : context.sessionCookies,
      }),
    },
    diverted: {
      type: "final" as const,
      output: ({ context }: { context: Context }) => ({ outcome: "diverted" as const, redirectTo: context.redirectTo!, ...kept(context) }),
    },
  };
}
