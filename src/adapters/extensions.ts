/**
 * What every appauth adapter offers beyond the spec's 19-method contract. The extensions are optional:
 * the core uses one when an adapter has it and falls back to the plain contract otherwise.
 */
import type { Adapter, AdapterAccount, AdapterUser } from "../types.js";

/** An account about to be linked to a user that does not exist yet: its `userId` is filled in. */
// (Omit<> would drop the named keys: AdapterAccount has an index signature.)
export type NewUserAccount = Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId" | "type">;

/**
 * An {@link Adapter} with appauth's optional extensions.
 *
 * `createUserAndLinkAccount(user, account)` creates the user and links the account in one atomic step
 * (DESIGN §5: writes that belong together happen together or not at all). The account's `userId` is set
 * to the created user's id. When the link fails (say, the provider account is already linked to someone
 * else) the user is not created and the call rejects. When an adapter lacks it, the core calls
 * `createUser` then `linkAccount`, and deletes the new user if the link fails.
 */
export interface ExtendedAdapter extends Adapter {
  createUserAndLinkAccount?(user: AdapterUser, account: NewUserAccount): Promise<AdapterUser>;
}

/** A fresh id for a user created without one: a random UUID from Web Crypto (Node 20, edge runtimes). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}
