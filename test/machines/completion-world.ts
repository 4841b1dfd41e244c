/**
 * The world a sign-in completion runs in, for its tests: who is stored (Ada, signed in on this browser
 * when anyone is; Grace, someone else; Hedy, who never verified her address), what the sign-in brings
 * (a setting), what the signIn callback, the adapter and the session store answer (a world), and the
 * completion machine with fakes that answer so, recording what ran.
 */
import { fromPromise } from "xstate";
import { signInCompletionMachine, type SignInCompletionInput } from "../../machines/index.js";
import type { EnrolledFactor, SecondFactorStatus, TwoFactorStep } from "../../machines/signin-completion.machine.js";
import type { SetCookie } from "../../src/cookies.js";
import type { RequestFacts } from "../../machines/shared.js";
import type { Account, AdapterUser, DetachedCredentials, Profile, ProviderType, User } from "../../src/types.js";
import { facts } from "./fixtures.js";

const verifiedAt = new Date("2029-03-01T09:00:00.000Z");
/** When a followed email link verified an address nobody had verified before. */
const markedAt = new Date("2029-03-02T10:30:00.000Z");

export const ada: AdapterUser = { id: "user-ada", name: "Ada", email: "ada@example.com", emailVerified: verifiedAt };
export const grace: AdapterUser = { id: "user-grace", name: "Grace", email: "grace@example.com", emailVerified: verifiedAt };
// A person of her own rather than an unverified copy of Grace: the adapter answers a link or a
// verification by id alone, so each stored state of a person needs its own id.
export const hedy: AdapterUser = { id: "user-hedy", name: "Hedy", email: "hedy@example.com", emailVerified: null };
// Whose stored address is the one the email tests' link proves (ada.l@example.com), never verified.
export const lin: AdapterUser = { id: "user-lin", name: "Lin", email: "ada.l@example.com", emailVerified: null };
const people = [ada, grace, hedy, lin];

/** The stored user an account was linked to: the adapter answers with the user of that id. */
export function personWithId(userId: string): AdapterUser {
  const person = people.find((p) => p.id === userId);
  if (!person) throw new Error(`Nobody has the id ${userId}.`);
  return person;
}

/** The stored user of that id once a followed email link has verified their address. */
export function markedVerified(userId: string): AdapterUser {
  return { ...personWithId(userId), emailVerified: markedAt };
}

/** What the adapter detaches from an unverified user it claims for the person who proved the address. */
export const detached: DetachedCredentials = {
  accounts: [{ provider: "squatter-idp", providerAccountId: "sq-1" }],
  authenticators: ["squatter-passkey"],
  sessions: 2,
};

/** The user the adapter creates for a first sign-in. */
export function newUserFrom(user: User, emailVerified: boolean): AdapterUser {
  return {
    id: "user-new",
    name: user.name ?? null,
    email: user.email ?? "",
    image: user.image ?? null,
    emailVerified: emailVerified ? verifiedAt : null,
  };
}

/** Where every sign-in here asked to go afterwards. */
export const requestedUrl = "https://app.example/dashboard";
/** Where the redirect fake sends a first sign-in (as `pages.newUser` would). */
export const welcomeUrl = "https://app.example/welcome";

export const sessionCookies: SetCookie[] = [
  { name: "__Secure-appauth.session-token", value: "sealed", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];

/** What the sign-in brings to the completion. */
export interface Setting {
  /** An email sign-in is what the email machine hands over once a link is followed. */
  provider: "credentials" | "oauth" | "email";
  hasAdapter: boolean;
  signedIn: boolean;
  /** The email the provider gives; present only when a non-empty string. */
  email: string | null | undefined;
  allowDangerousEmailAccountLinking: boolean;
  /** Whether the provider asserts the email verified. */
  emailVerified: boolean;
  /** Whether the adapter can update a linked account (so a returning person's new tokens are kept). */
  updatesAccountTokens?: boolean;
  /**
   * The second-factor step: configured and due ("pending"), the same under a `required` policy, so a
   * user the sign-in would create is asked about too ("required"), the resumed run after a passed
   * challenge ("resumed") or after an enrollment it led to ("enrolled"), or a first factor that counts
   * as both ("countsAsBoth"); absent, none is configured.
   */
  twoFactor?: "pending" | "required" | "resumed" | "enrolled" | "countsAsBoth";
}

/** The app an enrollment on the way in confirmed, as the resumed run carries it. */
export const enrolledApp: EnrolledFactor = { secret: "sealed-app-secret", step: 58_000_000 };

/** Where the pending-sign-in fake sends the browser, and the cookie it sets. */
export const challengeUrl = "https://app.example/auth/two-factor/challenge";
export const pendingCookies: SetCookie[] = [
  { name: "__Secure-appauth.two-factor", value: "sealed-pending", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true } },
];

export type AdapterEffect =
  | "findUserByAccount"
  | "findUserByEmail"
  | "linkAccount"
  | "claimUnverifiedUser"
  | "createUserWithAccount"
  | "markEmailVerified"
  | "updateAccountTokens"
  | "issueSession"
  | "resolveRedirect"
  | "findSecondFactor"
  | "holdPendingSignIn"
  | "storeEnrolledFactor";

/** What the outside world answers. */
export interface World {
  /** The stored user the account is linked to, if any. */
  accountOwner: AdapterUser | null;
  /** The stored user who has the sign-in's email, if any. */
  emailOwner: AdapterUser | null;
  signIn: { returns: boolean | string } | { throws: unknown };
  /** What the gate learns of the user (asked only when one is due): a factor to prove, one to enroll, or none. */
  secondFactor?: SecondFactorStatus;
  /** The adapter or session effect that throws when it runs, if one does. */
  failure?: { effect: AdapterEffect; error: unknown };
}

export function completionInput(setting: Setting): SignInCompletionInput {
  const input = providerInput(setting);
  if (!setting.twoFactor) return input;
  const firstFactor = setting.provider === "credentials" ? ["pwd"] : [];
  const steps: Record<NonNullable<Setting["twoFactor"]>, TwoFactorStep> = {
    pending: { firstFactor },
    required: { firstFactor, policy: true },
    resumed: { firstFactor, proved: ["otp"] },
    enrolled: { firstFactor, proved: ["otp"], enrolled: enrolledApp },
    countsAsBoth: { firstFactor, countsAsBoth: true },
  };
  const twoFactor = steps[setting.twoFactor];
  return { ...input, twoFactor };
}

function providerInput(setting: Setting): SignInCompletionInput {
  const { email } = setting;
  const withEmail = email === undefined ? {} : { email };
  // Given to every kind of sign-in as the runtime gives it: only OAuth/OIDC accounts have tokens to keep.
  const updates = setting.updatesAccountTokens ? { updatesAccountTokens: true } : {};
  if (setting.provider === "credentials") {
    const user: User = { id: "user-7", name: "Ada L.", ...withEmail };
    return {
      provider: { id: "password", type: "credentials", allowDangerousEmailAccountLinking: setting.allowDangerousEmailAccountLinking },
      user,
      account: { provider: "password", providerAccountId: "user-7", type: "credentials" },
      emailVerified: setting.emailVerified,
      credentials: { username: "ada", password: "correct horse" },
      ...(setting.signedIn ? { currentUserId: ada.id } : {}),
      hasAdapter: setting.hasAdapter,
      ...updates,
      callbackUrl: requestedUrl,
      request: facts(),
    };
  }
  if (setting.provider === "email") {
    // No profile: the link proves only the address, which is also the account's id.
    return {
      provider: { id: "email", type: "email", allowDangerousEmailAccountLinking: setting.allowDangerousEmailAccountLinking },
      user: { ...withEmail },
      account: { provider: "email", providerAccountId: email ?? "", type: "email" },
      emailVerified: setting.emailVerified,
      ...(setting.signedIn ? { currentUserId: ada.id } : {}),
      hasAdapter: setting.hasAdapter,
      ...updates,
      callbackUrl: requestedUrl,
      request: facts(),
    };
  }
  const profile: Profile = { id: "4711", login: "ada-l", name: "Ada L.", ...withEmail, email_verified: setting.emailVerified };
  const account: Account = { provider: "github", providerAccountId: "4711", type: "oauth", access_token: "gho_token" };
  return {
    provider: { id: "github", type: "oauth", allowDangerousEmailAccountLinking: setting.allowDangerousEmailAccountLinking },
    user: { id: "4711", name: "Ada L.", ...withEmail },
    account,
    profile,
    emailVerified: setting.emailVerified,
    ...(setting.signedIn ? { currentUserId: ada.id } : {}),
    hasAdapter: setting.hasAdapter,
    ...updates,
    callbackUrl: requestedUrl,
    request: facts(),
  };
}

/** The redirect callback as a test fakes it: where a judged URL goes. */
export type RedirectFake = (input: { url: string; isNewUser: boolean; request: RequestFacts }) => string | Promise<string>;

/**
 * The completion with fakes that answer as `world` says, recording each effect run and its input.
 * `redirect` judges the requested URL (default: a new user is welcomed, anyone else goes where asked).
 */
export function completionIn(world: World, redirect?: RedirectFake) {
  const calls: Array<{ effect: string; input: unknown }> = [];
  // A claimed user is stored verified from then on: a link to them answers them so.
  const claimed = new Set<string>();
  const stored = (userId: string) => (claimed.has(userId) ? markedVerified(userId) : personWithId(userId));
  function answer<I, O>(effect: AdapterEffect | "signInCallback", value: (input: I) => O | Promise<O>) {
    return fromPromise<O, I>(async ({ input }) => {
      calls.push({ effect, input });
      if (world.failure?.effect === effect) throw world.failure.error;
      return value(input);
    });
  }
  const machine = signInCompletionMachine.provide({
    actors: {
      findUserByAccount: answer("findUserByAccount", () => world.accountOwner),
      signInCallback: answer("signInCallback", () => {
        if ("throws" in world.signIn) throw world.signIn.throws;
        return world.signIn.returns;
      }),
      findUserByEmail: answer("findUserByEmail", () => world.emailOwner),
      linkAccount: answer("linkAccount", ({ userId }: { userId: string; account: Account }) => stored(userId)),
      claimUnverifiedUser: answer("claimUnverifiedUser", ({ userId }: { userId: string; providerType: ProviderType }) => {
        claimed.add(userId);
        return { user: markedVerified(userId), ...detached };
      }),
      createUserWithAccount: answer(
        "createUserWithAccount",
        ({ user, emailVerified }: { user: User; account: Account; emailVerified: boolean }) => newUserFrom(user, emailVerified),
      ),
      markEmailVerified: answer("markEmailVerified", ({ userId }: { userId: string }) => markedVerified(userId)),
      updateAccountTokens: answer("updateAccountTokens", (_: { account: Account }): void => undefined),
      issueSession: answer("issueSession", () => sessionCookies),
      findSecondFactor: answer("findSecondFactor", (_: { userId: string; user: User; newUser: boolean }) => world.secondFactor ?? "none"),
      storeEnrolledFactor: answer("storeEnrolledFactor", (_: { userId: string; enrolled: EnrolledFactor }): void => undefined),
      holdPendingSignIn: answer("holdPendingSignIn", () => ({ cookies: pendingCookies, redirectTo: challengeUrl })),
      resolveRedirect: answer(
        "resolveRedirect",
        redirect ?? (({ url, isNewUser }: Parameters<RedirectFake>[0]) => (isNewUser ? welcomeUrl : url)),
      ),
    },
  });
  return {
    machine,
    /** The effects run so far, in order. */
    ran: () => calls.map((call) => call.effect),
    /** The input the first run of `effect` was given. */
    inputOf: (effect: string) => calls.find((call) => call.effect === effect)?.input,
  };
}
