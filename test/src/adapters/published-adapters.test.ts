/**
 * The published Auth.js adapters, unchanged, under appauth's handler with database sessions (issue 16):
 * email sign-in through real SMTP, credentials sign-in of a stored user, and OpenID Connect sign-in
 * at the real test OP, two of whose users have no email. Each adapter has its own fresh PostgreSQL
 * database made with the schema its documentation gives (published-schemas.ts); unstorage keeps to memory.
 * Under CI PostgreSQL must be there; elsewhere its adapters are skipped, loudly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Credentials from "../../../src/providers/credentials.js";
import Nodemailer from "../../../src/providers/email.js";
import type { Adapter, AdapterUser } from "../../../src/types.js";
import { SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { FROM, mailedLink, sessionEmail } from "../email/fixtures.js";
import { loggedErrors, oidcProvider, setsSession, signInThroughOp } from "../oauth/fixtures.js";
import { PUBLISHED_ADAPTERS, type PublishedAdapterInstance } from "./published-schemas.js";
import { servicesFor } from "./published-services.js";
import { postgresAvailability } from "./servers.js";

const PASSWORD = "a password only the tests know";

/** The OP's people: one with a verified address, two who share none (a private GitHub address, say). */
const OP_ACCOUNTS = {
  ada: { email: "ada@example.com", email_verified: true, name: "Ada Lovelace" },
  "no-mail-1": { name: "First Without Mail" },
  "no-mail-2": { name: "Second Without Mail" },
};

const postgresSkip = await postgresAvailability();

const services = servicesFor(OP_ACCOUNTS);

/** Database sessions on `adapter`, with the three kinds of provider; credentials sign in a user the adapter stores. */
function configFor(adapter: Adapter, strategy: "database" | "jwt" = "database"): TestConfig {
  return testConfig({
    adapter,
    session: { strategy },
    providers: [
      oidcProvider(services.op),
      Nodemailer({ server: services.smtp.server, from: FROM }),
      Credentials({
        credentials: { username: { label: "Email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (credentials.password !== PASSWORD || typeof credentials.username !== "string") return null;
          return adapter.getUserByEmail!(credentials.username);
        },
      }),
    ],
  });
}

/** The session token the browser holds; its database session is then read and, after sign-out, gone. */
async function expectSignOutEnds(client: TestClient, adapter: Adapter): Promise<void> {
  const token = client.cookie(SESSION_COOKIE);
  expect(token).toBeDefined();
  expect(await adapter.getSessionAndUser!(token!)).not.toBeNull();
  const signedOut = await client.signOut();
  expect(signedOut.status).toBe(302);
  expect(await client.session()).toBeNull();
  expect(await adapter.getSessionAndUser!(token!)).toBeNull();
}

for (const published of PUBLISHED_ADAPTERS) {
  const skip = published.postgres ? postgresSkip : undefined;
  describe.skipIf(skip !== undefined)(`${published.name} under appauth, database sessions`, () => {
    let instance: PublishedAdapterInstance;
    let config: TestConfig;
    beforeAll(async () => {
      instance = await published.start();
      config = configFor(instance.adapter);
    });
    afterAll(async () => {
      await instance?.close();
    });

    it("signs a new user in through the mailed link, reads the session, and signs out", async () => {
      const email = `mail.${globalThis.crypto.randomUUID().slice(0, 8)}@example.com`;
      const client = new TestClient(config);
      const { link } = await mailedLink(client, services.smtp, email);
      const landed = await client.get(link.href);
      expect(setsSession(landed), loggedErrors(config)).toBe(true);
      expect(await sessionEmail(client)).toBe(email);
      const stored = await instance.adapter.getUserByEmail!(email);
      expect(stored?.emailVerified).toBeInstanceOf(Date);
      await expectSignOutEnds(client, instance.adapter);
    });

    it("signs a stored user in with credentials, reads the session, and signs out", async () => {
      const email = `cred.${globalThis.crypto.randomUUID().slice(0, 8)}@example.com`;
      await instance.adapter.createUser!({ id: globalThis.crypto.randomUUID(), name: "Stored", email, emailVerified: null } as AdapterUser);
      const client = new TestClient(config);
      expect(setsSession(await client.signIn(email, "not the password"))).toBe(false);
      const signedIn = await client.signIn(email, PASSWORD);
      expect(setsSession(signedIn), loggedErrors(config)).toBe(true);
      expect(await client.session()).toMatchObject({ user: { email, name: "Stored" } });
      await expectSignOutEnds(client, instance.adapter);
    });

    it("signs an existing user in through the mailed link as that same user, with JWT sessions too", async () => {
      const email = `known.${globalThis.crypto.randomUUID().slice(0, 8)}@example.com`;
      const name = "Known Before";
      const created = await instance.adapter.createUser!({
        id: globalThis.crypto.randomUUID(),
        name,
        email,
        emailVerified: new Date("2024-01-02T03:04:05Z"),
      } as AdapterUser);
      // The JWT carries the user the adapter answered with.
      const client = new TestClient(configFor(instance.adapter, "jwt"));
      const { link } = await mailedLink(client, services.smtp, email);
      expect(setsSession(await client.get(link.href))).toBe(true);
      expect(await client.session()).toMatchObject({ user: { email, name } });
      expect(await instance.adapter.getUserByEmail!(email)).toMatchObject({ id: created.id, name });
    });

    it("verifies the address of a user whose email account is linked, keeping the user's fields, with JWT sessions too", async () => {
      const email = `linked.${globalThis.crypto.randomUUID().slice(0, 8)}@example.com`;
      const name = "Linked Unverified";
      const created = await instance.adapter.createUser!({ id: globalThis.crypto.randomUUID(), name, email, emailVerified: null } as AdapterUser);
      await instance.adapter.linkAccount!({ userId: created.id, type: "email", provider: "nodemailer", providerAccountId: email });
      const client = new TestClient(configFor(instance.adapter, "jwt"));
      const { link } = await mailedLink(client, services.smtp, email);
      expect(setsSession(await client.get(link.href)), loggedErrors(config)).toBe(true);
      // The session is made of the user as verified: all of it, whatever updateUser answered.
      expect(await client.session()).toMatchObject({ user: { email, name } });
      const stored = await instance.adapter.getUserByEmail!(email);
      expect(stored).toMatchObject({ id: created.id, name });
      expect(stored?.emailVerified).toBeInstanceOf(Date);
    });

    it("signs in by OpenID Connect a user with an email and two without one, each their own user", async () => {
      const users: AdapterUser[] = [];
      for (const accountId of ["ada", "no-mail-1", "no-mail-2"] as const) {
        const client = new TestClient(config);
        const back = await signInThroughOp(services.op, client, { accountId });
        expect(setsSession(back), `${accountId}: ${loggedErrors(config)}`).toBe(true);
        expect(await client.session()).toMatchObject({ user: { name: OP_ACCOUNTS[accountId].name } });
        const user = await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: accountId });
        expect(user, accountId).not.toBeNull();
        users.push(user!);
        await expectSignOutEnds(client, instance.adapter);
      }
      expect(users.map((user) => user.email ?? null)).toEqual(["ada@example.com", null, null]);
      expect(new Set(users.map((user) => String(user.id))).size).toBe(3);

      // Signing in again finds the same user through the linked account, and makes no new one.
      const again = new TestClient(config);
      expect(setsSession(await signInThroughOp(services.op, again, { accountId: "no-mail-2" }))).toBe(true);
      const found = await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "no-mail-2" });
      expect(String(found?.id)).toBe(String(users[2]!.id));
      await expectSignOutEnds(again, instance.adapter);
    });
  });
}
