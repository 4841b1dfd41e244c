/**
 * The owner keeps their account (DESIGN §6, issue 24): end to end through `Auth()` on a real SQLite file
 * with an application table keyed by the user id (a foreign key that cascades on delete, as the Auth.js
 * schemas do), a real SMTP server and a real OpenID Provider.
 *
 * First the ordinary returning user: stored by Auth.js through OAuth, so with `emailVerified: null`,
 * who signs in by email link, or through a provider that asserts the address and may link by email.
 * Then the squatter the rule is for: someone who created that user first through an OAuth account of
 * their own and holds a session when the owner proves the address.
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sqliteAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import Nodemailer from "../../../src/providers/email.js";
import type { AuthConfig, EventCallbacks, Session } from "../../../src/types.js";
import { testConfig, type TestConfig } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import type { TestClient } from "../../helpers/test-client.js";
import { scratchSqlite, type ScratchDatabase } from "../adapters/servers.js";
import { FROM, mailedLink } from "../email/fixtures.js";
import { browser, oidcProvider, signInThroughOp, TWO_PROVIDER_CLIENT } from "../oauth/fixtures.js";
import { spiedAdapter, type AdapterCalls } from "../../helpers/spied-adapter.js";

const ADA = "ada@example.com";
const NOT_LINKED = "OAuthAccountNotLinked";

let smtp: TestSmtpServer;
let op: TestProvider;
beforeAll(async () => {
  smtp = await startSmtpServer();
  op = await startTestProvider({
    clients: [TWO_PROVIDER_CLIENT],
    accounts: {
      // The owner at the OP: it asserts her address verified.
      ada: { email: ADA, email_verified: true, name: "Ada Lovelace" },
      // A squatter's own account at an OP that does not verify addresses, claiming Ada's.
      mallory: { email: ADA, email_verified: false, name: "Not Ada" },
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await op.close();
});

let scratch: ScratchDatabase;
let store: OwnedSqlAdapter;
beforeEach(async () => {
  scratch = await scratchSqlite();
  store = sqliteAdapter(scratch.location);
  await store.migrate();
  // The application's own table, keyed by the user id, as apps on the Auth.js schemas have them.
  await sql`create table notes (id integer primary key, "userId" text not null references users(id) on delete cascade, body text not null)`.execute(store.db);
});
afterEach(async () => {
  await store.destroy();
  await scratch.drop();
});

/** A user as Auth.js stored everyone it created through OAuth: address unverified, one account linked. */
async function authjsOAuthUser(): Promise<string> {
  const id = crypto.randomUUID();
  await store.createUser({ id, name: "Ada Lovelace", email: ADA, image: null, emailVerified: null });
  await store.linkAccount({ userId: id, type: "oauth", provider: "github", providerAccountId: "gh-ada" });
  await sql`insert into notes ("userId", body) values (${id}, 'the analytical engine')`.execute(store.db);
  return id;
}

async function notesOf(userId: string): Promise<string[]> {
  const { rows } = await sql<{ body: string }>`select body from notes where "userId" = ${userId}`.execute(store.db);
  return rows.map((row) => row.body);
}

function configFor(strategy: "jwt" | "database", calls: AdapterCalls, events: EventCallbacks, overrides: Partial<AuthConfig> = {}): TestConfig {
  return testConfig({
    adapter: spiedAdapter(store, calls),
    session: { strategy },
    providers: [Nodemailer({ server: smtp.server, from: FROM }), oidcProvider(op, { allowDangerousEmailAccountLinking: true })],
    events,
    // The user id in the session, to say whose account the browser is in.
    callbacks: { session: ({ session, user, token }) => ({ ...session, user: { ...session.user, id: user?.id ?? token?.sub } }) as Session },
    ...overrides,
  });
}

async function sessionUserId(client: TestClient): Promise<string | null> {
  const session = (await client.session()) as { user?: { id?: string } } | null;
  return session?.user?.id ?? null;
}

describe.each(["database", "jwt"] as const)("a returning Auth.js user with an unverified address (%s sessions)", (strategy) => {
  const proofs = {
    "an email link": async (client: TestClient) => {
      await client.get((await mailedLink(client, smtp, ADA)).link.href);
    },
    "a provider that asserts the address and may link by email": async (client: TestClient) => {
      await signInThroughOp(op, client, { accountId: "ada" });
    },
  };

  for (const [proof, prove] of Object.entries(proofs)) {
    it(`keeps their user, id and application rows when they sign in through ${proof}, and is told what was detached`, async () => {
      const id = await authjsOAuthUser();
      const calls: AdapterCalls = [];
      const credentialsDetached = vi.fn<NonNullable<EventCallbacks["credentialsDetached"]>>();
      const client = browser(configFor(strategy, calls, { credentialsDetached }));

      await prove(client);

      expect(await sessionUserId(client)).toBe(id);
      expect(await notesOf(id)).toEqual(["the analytical engine"]);
      expect(calls).not.toContain("deleteUser");
      expect(calls).not.toContain("createUser");
      expect(calls).not.toContain("createUserAndLinkAccount");
      const user = await store.getUser(id);
      expect(user).toMatchObject({ id, email: ADA, name: "Ada Lovelace" });
      expect(user!.emailVerified).toBeInstanceOf(Date);
      // The account linked before the proof is detached (it could have been anyone's), and said so.
      expect(await store.getUserByAccount({ provider: "github", providerAccountId: "gh-ada" })).toBeNull();
      expect(credentialsDetached).toHaveBeenCalledOnce();
      expect(credentialsDetached.mock.calls[0]![0]).toMatchObject({
        user: { id },
        accounts: [{ provider: "github", providerAccountId: "gh-ada" }],
        authenticators: [],
        sessions: 0,
      });
    });
  }

  it("keeps the account they sign in with when it is the one already linked, detaching nothing", async () => {
    const id = await authjsOAuthUser();
    await store.linkAccount({ userId: id, type: "oidc", provider: "oidc", providerAccountId: "ada" });
    const calls: AdapterCalls = [];
    const credentialsDetached = vi.fn();
    const client = browser(configFor(strategy, calls, { credentialsDetached }));
    await signInThroughOp(op, client, { accountId: "ada" });
    expect(await sessionUserId(client)).toBe(id);
    expect(await store.getUserByAccount({ provider: "github", providerAccountId: "gh-ada" })).toMatchObject({ id });
    expect(credentialsDetached).not.toHaveBeenCalled();
    expect(calls).not.toContain("claimUnverifiedUser");
    expect((await store.getUser(id))!.emailVerified).toBeInstanceOf(Date);
  });
});

describe.each(["database", "jwt"] as const)("a squatter who created the user first through their own OAuth account (%s sessions)", (strategy) => {
  // updateAge 0: every read re-issues a JWT, and a jwt callback that rebuilds the token, so the check
  // is seen to survive both.
  const overrides: Partial<AuthConfig> =
    strategy === "jwt"
      ? {
          session: { strategy, updateAge: 0 },
          callbacks: {
            jwt: ({ token }) => ({ sub: token.sub, email: token.email, name: token.name }),
            session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token?.sub } }) as Session,
          },
        }
      : {};

  it("loses the account, the user and the session once the owner proves the address; the owner keeps the id", async () => {
    const calls: AdapterCalls = [];
    const config = configFor(strategy, calls, {}, overrides);
    const mallory = browser(config);
    await signInThroughOp(op, mallory, { accountId: "mallory" });
    const squatted = (await store.getUserByEmail(ADA))!;
    expect(squatted.emailVerified).toBeNull();
    expect(await sessionUserId(mallory)).toBe(squatted.id);
    expect(await sessionUserId(mallory)).toBe(squatted.id);

    const ada = browser(config);
    await ada.get((await mailedLink(ada, smtp, ADA)).link.href);

    expect(await sessionUserId(ada)).toBe(squatted.id);
    expect(calls).not.toContain("deleteUser");
    // Mallory's session reads as none (and its cookie is cleared), her account no longer leads in.
    expect(await mallory.session()).toBeNull();
    expect(await store.getUserByAccount({ provider: "oidc", providerAccountId: "mallory" })).toBeNull();
    const again = browser(config);
    const refused = await signInThroughOp(op, again, { accountId: "mallory" });
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe(NOT_LINKED);
    expect(await again.session()).toBeNull();
    // Ada is unaffected, and her later sign-ins are ordinary ones.
    expect(await sessionUserId(ada)).toBe(squatted.id);
    const later = browser(config);
    await signInThroughOp(op, later, { accountId: "ada" });
    expect(await sessionUserId(later)).toBe(squatted.id);
  });
});
