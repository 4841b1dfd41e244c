/**
 * Effects of the shared sign-in completion: the signIn callback, the adapter's user and account
 * operations (create + link atomically), the session for either strategy, and where it then goes.
 */
import { fromEffect } from "./effect.js";
import { signInCompletionMachine } from "../../machines/signin-completion.machine.js";
import type { Runtime } from "../config/runtime.js";
import type { ClaimedUser, ExtendedAdapter } from "../adapters/extensions.js";
import { AccountNotLinked, AdapterError, OAuthAccountNotLinked } from "../errors.js";
import { issueDatabaseSession, requireAdapter } from "../session/database-session.js";
import { issueJwtSession } from "../session/jwt-session.js";
import { recordJwtSession } from "../session/registry.js";
import { resolveRedirectUrl } from "../redirect.js";
import type { RequestFacts } from "../../machines/shared.js";
import type { Account, AdapterAccount, AdapterUser, ProviderType, User } from "../types.js";
import { customPageUrl } from "./pages.js";
import { requestOf } from "./run.js";
import { holdPendingSignIn } from "../two-factor/pending.js";
import type { SecondFactorStatus, TwoFactorStep } from "../../machines/signin-completion.machine.js";
import { secondFactorRequired, storeEnrolledFactor } from "../two-factor/signin-enrollment.js";
import { isBrowserRemembered } from "../two-factor/remember.js";
import type { RequestContext } from "../request-context.js";

/** The path of the second-factor challenge under the base path. */
export const CHALLENGE_PATH = "/two-factor-challenge";

/**
 * The second-factor step a flow hands its completion: none without a `twoFactor` configuration (the
 * completion then looks nothing up), else what the first factor proved.
 */
export function twoFactorStep(rt: Runtime, firstFactor: string[], options: { countsAsBoth?: boolean } = {}): { twoFactor?: TwoFactorStep } {
  if (!rt.twoFactor) return {};
  const policy = rt.twoFactor.required !== undefined && rt.twoFactor.required !== false;
  return { twoFactor: { firstFactor, ...(options.countsAsBoth ? { countsAsBoth: true } : {}), ...(policy ? { policy: true } : {}) } };
}

/**
 * What the gate asks of the user `userId` ("" for one the sign-in would create, who has no factor):
 * an active factor (an authenticator app confirmed with a first code) is challenged; without one, the
 * `required` policy may send them to enroll.
 */
async function secondFactorStatus(rt: Runtime, ctx: RequestContext, input: { userId: string; user: User; newUser: boolean }): Promise<SecondFactorStatus> {
  const adapter = requireAdapter(rt) as ExtendedAdapter;
  if (!input.newUser) {
    if (!input.userId) throw new AdapterError("A second factor is configured, but the signing-in user has no id to look it up by.");
    const factors = await adapter.getTwoFactors!(input.userId);
    // Only a user with an active factor can be remembered: a `required` user without one still enrolls.
    if (factors.some((factor) => factor.active)) return (await isBrowserRemembered(rt, ctx, input.userId)) ? "remembered" : "challenge";
  }
  return (await secondFactorRequired(rt, input.user)) ? "enroll" : "none";
}

/** An authenticator a passkey registration carries on its account until the person's user is known. */
export interface PendingAuthenticator {
  credentialID: string;
  credentialPublicKey: string;
  counter: number;
  credentialDeviceType: string;
  credentialBackedUp: boolean;
  transports: string | null;
}

/** The account as stored: the user's id added, a carried authenticator left out (it is stored on its own). */
function storedAccount(account: Account, userId: string): AdapterAccount {
  const { authenticator: _pending, ...rest } = account;
  return { ...rest, userId } as AdapterAccount;
}

/** Stores the authenticator a registration carried on its account, for `userId`. */
async function storePendingAuthenticator(rt: Runtime, account: Account, userId: string): Promise<void> {
  const pending = account.authenticator as PendingAuthenticator | undefined;
  if (!pending) return;
  await requireAdapter(rt).createAuthenticator!({ ...pending, providerAccountId: account.providerAccountId, userId });
}

/**
 * Creates the user and links the account together: through the adapter's transaction when it has
 * one, else one after the other, removing the user again when the link fails.
 */
export async function createUserWithAccount(
  rt: Runtime,
  user: User,
  account: Account,
  emailVerified: boolean,
): Promise<AdapterUser> {
  const adapter = requireAdapter(rt) as ExtendedAdapter;
  const newUser: AdapterUser = {
    id: crypto.randomUUID(),
    name: user.name ?? null,
    // No address is null, as Auth.js stores it: "" would collide in a unique email column.
    email: user.email || null,
    image: user.image ?? null,
    emailVerified: emailVerified ? new Date() : null,
  };
  let created: AdapterUser | undefined;
  try {
    if (adapter.createUserAndLinkAccount) {
      created = await adapter.createUserAndLinkAccount(newUser, storedAccount(account, newUser.id));
    } else {
      created = await adapter.createUser!(newUser);
      await adapter.linkAccount!(storedAccount(account, created.id));
    }
    // A passkey registration: its authenticator belongs with the new user, or neither stays.
    await storePendingAuthenticator(rt, account, created.id);
  } catch (error) {
    // The id is ours, so even a createUser whose answer was lost (the write may have committed) can be undone.
    const userId = created?.id ?? newUser.id;
    if (!created && adapter.createUserAndLinkAccount) throw error;
    try {
      await adapter.deleteUser?.(userId);
    } catch (cleanup) {
      // Left behind, the user would refuse this person's next sign-in (OAuthAccountNotLinked): name it.
      // (When createUser itself failed there may be nothing to remove: then the failure is only noted.)
      const message = `Could not remove the user ${JSON.stringify(userId)} whose account failed to link; remove it by hand.`;
      if (created) rt.logger.error("AdapterError", new AdapterError(message, { cause: cleanup }));
      else rt.logger.debug("AdapterError", message, cleanup);
    }
    throw error;
  }
  return created;
}

/**
 * Claims the unverified user `userId` for the person who just proved their address (see the machine):
 * through the adapter's `claimUnverifiedUser`, which detaches and verifies in one step. An adapter
 * without it (the published Auth.js ones) cannot do that safely, so the proof is refused, typed as a
 * link refusal the browser may see, with the missing method named in the server's log.
 */
async function claimUnverifiedUser(rt: Runtime, userId: string, providerType: ProviderType): Promise<ClaimedUser> {
  const adapter = requireAdapter(rt) as ExtendedAdapter;
  const Refusal = providerType === "email" ? AccountNotLinked : OAuthAccountNotLinked;
  if (typeof adapter.claimUnverifiedUser !== "function") {
    throw new Refusal(
      "This sign-in proved an address whose user nobody had verified; the adapter has no claimUnverifiedUser to detach what was attached to that user first, so the sign-in is refused and nothing is changed. Use an adapter with the extension (see docs/concepts/account-safety.md).",
    );
  }
  const claimed = await adapter.claimUnverifiedUser(userId, new Date());
  if (!claimed) throw new Refusal("The unverified user to claim was gone, or verified by someone else meanwhile: nothing was changed.");
  await rt.events.updateUser?.({ user: claimed.user });
  return claimed;
}

/** Where a completed sign-in goes: `pages.newUser` for a first sign-in (carrying the callback URL), else the callback URL. */
export async function resolveSignInRedirect(
  rt: Runtime,
  input: { url: string; isNewUser: boolean; request: RequestFacts },
): Promise<string> {
  const target = await resolveRedirectUrl(input.url, input.request, rt.callbacks.redirect);
  if (input.isNewUser) {
    const newUser = customPageUrl(rt, input.request, "newUser", new URLSearchParams({ callbackUrl: target }));
    if (newUser) return newUser;
  }
  return target;
}

export function bindSignInCompletion(rt: Runtime) {
  return signInCompletionMachine.provide({
    actors: {
      findUserByAccount: fromEffect(async ({ input }) =>
        requireAdapter(rt).getUserByAccount!({ provider: input.account.provider, providerAccountId: input.account.providerAccountId }),
      ),
      signInCallback: fromEffect(async ({ input }) => rt.callbacks.signIn(input)),
      findSecondFactor: fromEffect(({ input, system }) => secondFactorStatus(rt, requestOf(system), input)),
      holdPendingSignIn: fromEffect(async ({ input, system }) => {
        const ctx = requestOf(system);
        const cookies = await holdPendingSignIn(rt, ctx, input);
        if (!input.enroll) await rt.events.twoFactorChallenged?.({ userId: input.userId });
        return { cookies, redirectTo: `${ctx.baseUrl}${CHALLENGE_PATH}` };
      }),
      storeEnrolledFactor: fromEffect(async ({ input, system }) => {
        if (!input.userId) throw new AdapterError("An authenticator app was confirmed for a user without an id.");
        await storeEnrolledFactor(rt, requestOf(system), input.userId, input.enrolled);
      }),
      findUserByEmail: fromEffect(async ({ input }) => requireAdapter(rt).getUserByEmail!(input.email)),
      linkAccount: fromEffect(async ({ input }) => {
        const adapter = requireAdapter(rt);
        await adapter.linkAccount!(storedAccount(input.account, input.userId));
        await storePendingAuthenticator(rt, input.account, input.userId);
        const user = await adapter.getUser!(input.userId);
        if (!user) throw new AdapterError(`The user ${input.userId} an account was linked to does not exist.`);
        return user;
      }),
      claimUnverifiedUser: fromEffect(({ input }) => claimUnverifiedUser(rt, input.userId, input.providerType)),
      createUserWithAccount: fromEffect(({ input }) => createUserWithAccount(rt, input.user, input.account, input.emailVerified)),
      updateAccountTokens: fromEffect(async ({ input }) => {
        const { provider, providerAccountId, type: _type, userId: _userId, ...fields } = input.account;
        const updated = await (requireAdapter(rt) as ExtendedAdapter).updateAccount!({ ...fields, provider, providerAccountId });
        if (!updated) throw new AdapterError(`The account ${provider}/${providerAccountId} to update is not linked.`);
      }),
      markEmailVerified: fromEffect(async ({ input }) => {
        const adapter = requireAdapter(rt);
        const updated = await adapter.updateUser!({ id: input.userId, emailVerified: new Date() });
        // The session is made of this user. Some published adapters answer only what was updated
        // (@auth/typeorm-adapter: the other fields null), so it is read back whole.
        const user = (await adapter.getUser!(input.userId)) ?? updated;
        await rt.events.updateUser?.({ user });
        return user;
      }),
      issueSession: fromEffect(async ({ input, system }) => {
        if (rt.session.strategy === "database") {
          if (!input.user.id) throw new AdapterError("A database session needs a user with an id.");
          return issueDatabaseSession(rt, requestOf(system), String(input.user.id), input.account, input.amr);
        }
        const ctx = requestOf(system);
        return issueJwtSession(rt, ctx, {
          user: input.user,
          account: input.account,
          ...(input.profile ? { profile: input.profile } : {}),
          isNewUser: input.isNewUser,
          issued: (token) => recordJwtSession(rt, ctx, token, input.account),
          ...(input.amr ? { amr: input.amr } : {}),
        });
      }),
      resolveRedirect: fromEffect(({ input }) => resolveSignInRedirect(rt, input)),
    },
  });
}
