/**
 * The adapter conformance suite: one call registers vitest tests that check an adapter against the
 * spec's contract and appauth's stricter rules (single-use, identifier-bound verification tokens; Dates
 * as Dates; snake_case OAuth values as stored; atomic create-user-and-link). Every adapter that ships
 * with appauth passes it, and a third-party adapter can run it in its own test suite:
 *
 * ```ts
 * import { runAdapterConformance } from "appauth/adapters/test";
 * runAdapterConformance("my adapter", { adapter: () => MyAdapter(db), teardown: () => db.close() });
 * ```
 *
 * vitest is an optional peer dependency of this module only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Adapter, AdapterUser } from "../../types.js";
import type { ExtendedAdapter } from "../extensions.js";
import {
  daysFromNow,
  sampleAccount,
  sampleAuthenticator,
  sampleSession,
  sampleToken,
  sampleUser,
  unique,
} from "./fixtures.js";

export { daysFromNow, sampleAccount, sampleAuthenticator, sampleSession, sampleToken, sampleUser, unique };

export interface AdapterConformanceOptions {
  /** The adapter, or a factory called once, after `setup`, before the first test. */
  adapter: Adapter | (() => Adapter | Promise<Adapter>);
  /** Runs before the adapter is built: create a database, start a server. */
  setup?(): Promise<void>;
  /** Runs after the last test: drop the database, close connections. */
  teardown?(): Promise<void>;
  /** When set, the suite is registered but skipped, and this reason shows in the report. */
  skip?: string;
}

type Method = keyof Required<ExtendedAdapter>;
type Bound<M extends Method> = NonNullable<ExtendedAdapter[M]>;

/** Dates must come back as Dates, equal to what was stored to the second at least. */
function expectSameInstant(actual: unknown, expected: Date): void {
  expect(actual).toBeInstanceOf(Date);
  expect(Math.abs((actual as Date).getTime() - expected.getTime())).toBeLessThan(1000);
}

/** Runs a call that may throw synchronously or return a plain value, as a promise. */
function attempt<T>(call: () => T): Promise<Awaited<T>> {
  return Promise.resolve().then(call) as Promise<Awaited<T>>;
}

/**
 * Registers the conformance tests for one adapter under `describe(name)`. Every contract method is
 * exercised; a missing one fails its tests with a message naming it.
 */
export function runAdapterConformance(name: string, options: AdapterConformanceOptions): void {
  if (options.skip !== undefined) {
    describe.skip(`${name} (skipped: ${options.skip})`, () => {
      it("conforms to the adapter contract", () => undefined);
    });
    return;
  }

  let adapter: ExtendedAdapter | undefined;

  function method<M extends Method>(m: M): Bound<M> {
    if (!adapter) throw new Error(`${name}: the adapter was not built (did setup fail?)`);
    const fn = adapter[m];
    if (typeof fn !== "function") throw new Error(`${name} does not implement ${m}()`);
    return (fn as (...args: unknown[]) => unknown).bind(adapter) as Bound<M>;
  }

  async function createdUser(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
    return method("createUser")(sampleUser(overrides));
  }

  describe(name, () => {
    beforeAll(async () => {
      await options.setup?.();
      adapter = typeof options.adapter === "function" ? await options.adapter() : options.adapter;
    });
    afterAll(async () => {
      await options.teardown?.();
    });

    describe("users", () => {
      it("creates a user and reads it back by id and by email, Dates as Dates", async () => {
        const input = sampleUser();
        const created = await method("createUser")(input);
        expect(created).toMatchObject({ id: input.id, email: input.email, name: input.name, image: input.image });
        expectSameInstant(created.emailVerified, input.emailVerified as Date);

        const byId = await method("getUser")(input.id);
        expect(byId).toMatchObject({ id: input.id, email: input.email, name: input.name, image: input.image });
        expectSameInstant(byId?.emailVerified, input.emailVerified as Date);
        expect(await method("getUserByEmail")(input.email)).toMatchObject({ id: input.id });
      });

      it("keeps an unverified email as null", async () => {
        const created = await createdUser({ emailVerified: null });
        expect(created.emailVerified).toBeNull();
        expect((await method("getUser")(created.id))?.emailVerified).toBeNull();
      });

      it("assigns an id to a user created without one", async () => {
        const { id: _omitted, ...withoutId } = sampleUser();
        const created = await method("createUser")(withoutId as AdapterUser);
        expect(typeof created.id).toBe("string");
        expect(created.id.length).toBeGreaterThan(0);
        expect(await method("getUser")(created.id)).toMatchObject({ email: withoutId.email });
      });

      it("answers null for an unknown id or email", async () => {
        expect(await method("getUser")(globalThis.crypto.randomUUID())).toBeNull();
        expect(await method("getUserByEmail")(`nobody.${unique()}@example.com`)).toBeNull();
      });

      it("tolerates extra fields on a user", async () => {
        const input = { ...sampleUser(), role: "admin", locale: "fr" } as AdapterUser;
        await expect(method("createUser")(input)).resolves.toMatchObject({ id: input.id, email: input.email });
        expect(await method("getUser")(input.id)).toMatchObject({ id: input.id, email: input.email });
      });

      it("updates the given fields, keeps the others, and returns the updated user", async () => {
        const user = await createdUser({ emailVerified: null });
        const verifiedAt = new Date("2025-01-02T03:04:05.000Z");
        const updated = await method("updateUser")({ id: user.id, name: "Renamed", emailVerified: verifiedAt });
        expect(updated).toMatchObject({ id: user.id, name: "Renamed", email: user.email, image: user.image });
        expectSameInstant(updated.emailVerified, verifiedAt);

        const read = await method("getUser")(user.id);
        expect(read).toMatchObject({ name: "Renamed", email: user.email, image: user.image });
        expectSameInstant(read?.emailVerified, verifiedAt);
      });

      it("finds a user by a new email after the email changed", async () => {
        const user = await createdUser();
        const email = `changed.${unique()}@example.com`;
        await method("updateUser")({ id: user.id, email });
        expect(await method("getUserByEmail")(email)).toMatchObject({ id: user.id });
        expect(await method("getUserByEmail")(user.email)).toBeNull();
      });

      it("returns copies: changing a returned user does not change the stored one", async () => {
        const user = await createdUser();
        user.name = "Mutated";
        (user.emailVerified as Date).setTime(0);
        const read = await method("getUser")(user.id);
        expect(read?.name).not.toBe("Mutated");
        expect((read?.emailVerified as Date).getTime()).not.toBe(0);
      });

      it("rejects a second user with the same email", async () => {
        const user = await createdUser();
        await expect(attempt(() => method("createUser")(sampleUser({ email: user.email })))).rejects.toThrow();
      });
    });

    describe("accounts", () => {
      it("links an account and round-trips the snake_case OAuth values as stored", async () => {
        const user = await createdUser();
        const account = sampleAccount(user.id);
        await method("linkAccount")(account);

        const read = await method("getAccount")(account.providerAccountId, account.provider);
        expect(read).toMatchObject({
          userId: user.id,
          type: "oidc",
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          access_token: account.access_token,
          refresh_token: account.refresh_token,
          expires_at: account.expires_at,
          token_type: "bearer",
          scope: "openid email profile",
          id_token: account.id_token,
          session_state: account.session_state,
        });
        expect(typeof read?.expires_at).toBe("number");
      });

      it("finds the user through a linked account, and null for an unknown one", async () => {
        const user = await createdUser();
        const account = sampleAccount(user.id, { provider: "github", type: "oauth" });
        await method("linkAccount")(account);
        const found = await method("getUserByAccount")({ provider: "github", providerAccountId: account.providerAccountId });
        expect(found).toMatchObject({ id: user.id, email: user.email });
        expect(await method("getUserByAccount")({ provider: "github", providerAccountId: unique() })).toBeNull();
        // The provider is part of the key: the same account id at another provider is someone else.
        expect(
          await method("getUserByAccount")({ provider: "gitlab", providerAccountId: account.providerAccountId }),
        ).toBeNull();
      });

      it("answers null from getAccount for an unknown account", async () => {
        expect(await method("getAccount")(unique(), "example-oidc")).toBeNull();
      });

      it("keeps several accounts of one user apart", async () => {
        const user = await createdUser();
        const first = sampleAccount(user.id, { provider: "github", type: "oauth", scope: "read:user" });
        const second = sampleAccount(user.id, { provider: "google", scope: "openid" });
        await method("linkAccount")(first);
        await method("linkAccount")(second);
        expect(await method("getAccount")(first.providerAccountId, "github")).toMatchObject({ scope: "read:user" });
        expect(await method("getAccount")(second.providerAccountId, "google")).toMatchObject({ scope: "openid" });
      });

      it("stores an account with only the required fields", async () => {
        const user = await createdUser();
        const account = { userId: user.id, type: "email", provider: "email", providerAccountId: user.email } as const;
        await method("linkAccount")(account);
        const read = await method("getAccount")(user.email, "email");
        expect(read).toMatchObject(account);
        expect(read?.access_token ?? undefined).toBeUndefined();
      });

      it("tolerates extra provider fields on an account", async () => {
        const user = await createdUser();
        const account = { ...sampleAccount(user.id), refresh_token_expires_in: 7200, "not-before-policy": 0 };
        await method("linkAccount")(account);
        expect(await method("getAccount")(account.providerAccountId, account.provider)).toMatchObject({
          access_token: account.access_token,
        });
      });

      it("rejects linking a provider account that is already linked", async () => {
        const [owner, other] = [await createdUser(), await createdUser()];
        const account = sampleAccount(owner.id);
        await method("linkAccount")(account);
        await expect(attempt(() => method("linkAccount")({ ...account, userId: other.id }))).rejects.toThrow();
        const found = await method("getUserByAccount")(account);
        expect(found?.id).toBe(owner.id);
      });

      it("unlinks an account", async () => {
        const user = await createdUser();
        const account = sampleAccount(user.id);
        await method("linkAccount")(account);
        await method("unlinkAccount")({ provider: account.provider, providerAccountId: account.providerAccountId });
        expect(await method("getAccount")(account.providerAccountId, account.provider)).toBeNull();
        expect(await method("getUserByAccount")(account)).toBeNull();
        expect(await method("getUser")(user.id)).toMatchObject({ id: user.id });
      });
    });

    describe("sessions", () => {
      it("creates a session and reads it back joined with its user", async () => {
        const user = await createdUser();
        const session = sampleSession(user.id);
        const created = await method("createSession")(session);
        expect(created).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
        expectSameInstant(created.expires, session.expires);

        const found = await method("getSessionAndUser")(session.sessionToken);
        expect(found?.session).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
        expectSameInstant(found?.session.expires, session.expires);
        expect(found?.user).toMatchObject({ id: user.id, email: user.email, name: user.name, image: user.image });
        expectSameInstant(found?.user.emailVerified, user.emailVerified as Date);
      });

      it("answers null for an unknown session token", async () => {
        expect(await method("getSessionAndUser")(`st-${unique()}`)).toBeNull();
      });

      it("extends a session's expiry", async () => {
        const user = await createdUser();
        const session = sampleSession(user.id, { expires: daysFromNow(1) });
        await method("createSession")(session);
        const later = daysFromNow(30);
        const updated = await method("updateSession")({ sessionToken: session.sessionToken, expires: later });
        if (updated) {
          expect(updated).toMatchObject({ sessionToken: session.sessionToken, userId: user.id });
          expectSameInstant(updated.expires, later);
        }
        const found = await method("getSessionAndUser")(session.sessionToken);
        expectSameInstant(found?.session.expires, later);
        expect(found?.user.id).toBe(user.id);
      });

      it("answers null or undefined when updating an unknown session", async () => {
        const result = await method("updateSession")({ sessionToken: `st-${unique()}`, expires: daysFromNow(1) });
        expect(result ?? null).toBeNull();
      });

      it("deletes a session so it can no longer be read", async () => {
        const user = await createdUser();
        const session = sampleSession(user.id);
        await method("createSession")(session);
        await method("deleteSession")(session.sessionToken);
        expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
        expect(await method("getUser")(user.id)).toMatchObject({ id: user.id });
      });

      it("deletes an unknown session without failing", async () => {
        await expect(attempt(() => method("deleteSession")(`st-${unique()}`))).resolves.not.toThrow();
      });

      it("keeps the other sessions of a user when one is deleted", async () => {
        const user = await createdUser();
        const [first, second] = [sampleSession(user.id), sampleSession(user.id)];
        await method("createSession")(first);
        await method("createSession")(second);
        await method("deleteSession")(first.sessionToken);
        expect(await method("getSessionAndUser")(second.sessionToken)).toMatchObject({ user: { id: user.id } });
      });
    });

    describe("verification tokens", () => {
      it("stores a token and returns it once, with its expiry as a Date", async () => {
        const token = sampleToken();
        const created = await method("createVerificationToken")(token);
        if (created) expect(created).toMatchObject({ identifier: token.identifier, token: token.token });

        const used = await method("useVerificationToken")({ identifier: token.identifier, token: token.token });
        expect(used).toMatchObject({ identifier: token.identifier, token: token.token });
        expectSameInstant(used?.expires, token.expires);
        expect(await method("useVerificationToken")({ identifier: token.identifier, token: token.token })).toBeNull();
      });

      it("answers null for an unknown token", async () => {
        const token = sampleToken();
        expect(await method("useVerificationToken")(token)).toBeNull();
      });

      it("binds a token to its identifier: another identifier gets null and does not consume it", async () => {
        const token = sampleToken();
        await method("createVerificationToken")(token);
        const wrong = await method("useVerificationToken")({ identifier: `eve.${unique()}@example.com`, token: token.token });
        expect(wrong).toBeNull();
        const right = await method("useVerificationToken")({ identifier: token.identifier, token: token.token });
        expect(right).toMatchObject({ identifier: token.identifier, token: token.token });
      });

      it("keeps tokens of the same identifier apart", async () => {
        const first = sampleToken();
        const second = sampleToken({ identifier: first.identifier });
        await method("createVerificationToken")(first);
        await method("createVerificationToken")(second);
        expect(await method("useVerificationToken")(first)).toMatchObject({ token: first.token });
        expect(await method("useVerificationToken")(second)).toMatchObject({ token: second.token });
      });

      it("lets exactly one of two concurrent uses of a token win", async () => {
        const token = sampleToken();
        await method("createVerificationToken")(token);
        const params = { identifier: token.identifier, token: token.token };
        const results = await Promise.all([
          method("useVerificationToken")(params),
          method("useVerificationToken")(params),
        ]);
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });
    });

    describe("authenticators", () => {
      it("creates an authenticator and reads it back with its types intact", async () => {
        const user = await createdUser();
        const authenticator = sampleAuthenticator(user.id, { counter: 3 });
        expect(await method("createAuthenticator")(authenticator)).toEqual(authenticator);
        const read = await method("getAuthenticator")(authenticator.credentialID);
        expect(read).toEqual(authenticator);
        expect(typeof read?.counter).toBe("number");
        expect(typeof read?.credentialBackedUp).toBe("boolean");
      });

      it("keeps a credential without transports", async () => {
        const user = await createdUser();
        const authenticator = sampleAuthenticator(user.id, { transports: null, credentialBackedUp: false });
        await method("createAuthenticator")(authenticator);
        const read = await method("getAuthenticator")(authenticator.credentialID);
        expect(read).toMatchObject({ credentialBackedUp: false });
        expect(read?.transports ?? null).toBeNull();
      });

      it("answers null for an unknown credential", async () => {
        expect(await method("getAuthenticator")(`cred-${unique()}`)).toBeNull();
      });

      it("rejects a second authenticator with the same credential ID", async () => {
        const user = await createdUser();
        const authenticator = sampleAuthenticator(user.id);
        await method("createAuthenticator")(authenticator);
        await expect(attempt(() => method("createAuthenticator")(authenticator))).rejects.toThrow();
      });

      it("lists a user's authenticators, and an empty list for an unknown user", async () => {
        const [user, other] = [await createdUser(), await createdUser()];
        const first = sampleAuthenticator(user.id);
        const second = sampleAuthenticator(user.id, { transports: "usb" });
        await method("createAuthenticator")(first);
        await method("createAuthenticator")(second);
        await method("createAuthenticator")(sampleAuthenticator(other.id));

        const listed = await method("listAuthenticatorsByUserId")(user.id);
        const byId = (a: { credentialID: string }, b: { credentialID: string }): number =>
          a.credentialID.localeCompare(b.credentialID);
        expect([...listed].sort(byId)).toEqual([first, second].sort(byId));
        expect(await method("listAuthenticatorsByUserId")(globalThis.crypto.randomUUID())).toEqual([]);
      });

      it("updates the signature counter and returns the updated authenticator", async () => {
        const user = await createdUser();
        const authenticator = sampleAuthenticator(user.id);
        await method("createAuthenticator")(authenticator);
        const updated = await method("updateAuthenticatorCounter")(authenticator.credentialID, 42);
        expect(updated).toEqual({ ...authenticator, counter: 42 });
        expect(await method("getAuthenticator")(authenticator.credentialID)).toMatchObject({ counter: 42 });
      });

      it("throws when updating the counter of an unknown credential", async () => {
        await expect(attempt(() => method("updateAuthenticatorCounter")(`cred-${unique()}`, 1))).rejects.toThrow();
      });
    });

    describe("deleting a user", () => {
      it("removes the user with their accounts, sessions and authenticators", async () => {
        const user = await createdUser();
        const account = sampleAccount(user.id);
        const session = sampleSession(user.id);
        const authenticator = sampleAuthenticator(user.id);
        await method("linkAccount")(account);
        await method("createSession")(session);
        await method("createAuthenticator")(authenticator);

        await method("deleteUser")(user.id);
        expect(await method("getUser")(user.id)).toBeNull();
        expect(await method("getUserByEmail")(user.email)).toBeNull();
        expect(await method("getAccount")(account.providerAccountId, account.provider)).toBeNull();
        expect(await method("getUserByAccount")(account)).toBeNull();
        expect(await method("getSessionAndUser")(session.sessionToken)).toBeNull();
        expect(await method("getAuthenticator")(authenticator.credentialID)).toBeNull();
        expect(await method("listAuthenticatorsByUserId")(user.id)).toEqual([]);
      });

      it("leaves other users alone", async () => {
        const [user, other] = [await createdUser(), await createdUser()];
        const session = sampleSession(other.id);
        await method("createSession")(session);
        await method("deleteUser")(user.id);
        expect(await method("getSessionAndUser")(session.sessionToken)).toMatchObject({ user: { id: other.id } });
      });
    });

    describe("createUserAndLinkAccount (optional extension)", () => {
      it("creates the user and links the account together", async ({ skip }) => {
        if (!adapter?.createUserAndLinkAccount) return skip("not implemented by this adapter");
        const input = sampleUser();
        const { userId: _none, ...account } = sampleAccount("");
        const created = await adapter.createUserAndLinkAccount(input, account);
        expect(created).toMatchObject({ id: input.id, email: input.email });
        expect(await method("getUserByAccount")(account)).toMatchObject({ id: input.id });
        expect(await method("getAccount")(account.providerAccountId, account.provider)).toMatchObject({
          userId: input.id,
          access_token: account.access_token,
          expires_at: account.expires_at,
        });
      });

      it("assigns an id when the user has none and links the account to it", async ({ skip }) => {
        if (!adapter?.createUserAndLinkAccount) return skip("not implemented by this adapter");
        const { id: _omitted, ...input } = sampleUser();
        const account = sampleAccount("");
        const created = await adapter.createUserAndLinkAccount(input as AdapterUser, account);
        expect(created.id.length).toBeGreaterThan(0);
        expect(await method("getUserByAccount")(account)).toMatchObject({ id: created.id });
      });

      it("creates no user when the account cannot be linked", async ({ skip }) => {
        if (!adapter?.createUserAndLinkAccount) return skip("not implemented by this adapter");
        const owner = await createdUser();
        const account = sampleAccount(owner.id);
        await method("linkAccount")(account);

        const newcomer = sampleUser();
        await expect(adapter.createUserAndLinkAccount(newcomer, account)).rejects.toThrow();
        expect(await method("getUser")(newcomer.id)).toBeNull();
        expect(await method("getUserByEmail")(newcomer.email)).toBeNull();
        expect(await method("getUserByAccount")(account)).toMatchObject({ id: owner.id });
      });
    });
  });
}
