/**
 * Effects of the shared sign-in completion: the signIn callback, the adapter's user and account
 * operations (create + link atomically), the session for either strategy, and where it then goes.
 */
import { fromEffect } from "./effect.js";
import { signInCompletionMachine } from "../../machines/signin-completion.machine.js";
import type { Runtime } from "../config/runtime.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import { AdapterError } from "../errors.js";
import { issueDatabaseSession, requireAdapter } from "../session/database-session.js";
import { issueJwtSession } from "../session/jwt-session.js";
import { resolveRedirectUrl } from "../redirect.js";
import type { RequestFacts } from "../../machines/shared.js";
import type { Account, AdapterAccount, AdapterUser, User } from "../types.js";
import { customPageUrl } from "./pages.js";
import { requestOf } from "./run.js";

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
      findUserByEmail: fromEffect(async ({ input }) => requireAdapter(rt).getUserByEmail!(input.email)),
      linkAccount: fromEffect(async ({ input }) => {
        const adapter = requireAdapter(rt);
        await adapter.linkAccount!(storedAccount(input.account, input.userId));
        await storePendingAuthenticator(rt, input.account, input.userId);
        const user = await adapter.getUser!(input.userId);
        if (!user) throw new AdapterError(`The user ${input.userId} an account was linked to does not exist.`);
        return user;
      }),
      // The adapter's deleteUser takes the user's accounts, sessions and authenticators with it (ours do;
      // the conformance suite checks it). The configuration is refused without deleteUser (runtime.ts).
      removeUnverifiedUser: fromEffect(async ({ input }) => {
        await requireAdapter(rt).deleteUser!(input.userId);
      }),
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
          return issueDatabaseSession(rt, requestOf(system), String(input.user.id), input.account);
        }
        return issueJwtSession(rt, requestOf(system), {
          user: input.user,
          account: input.account,
          ...(input.profile ? { profile: input.profile } : {}),
          isNewUser: input.isNewUser,
        });
      }),
      resolveRedirect: fromEffect(({ input }) => resolveSignInRedirect(rt, input)),
    },
  });
}
