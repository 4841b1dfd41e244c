/**
 * The database connection drops in the middle of a first-time OAuth/OIDC sign-in (DESIGN §5, §6).
 * The SQL adapter talks to a throwaway PostgreSQL database through a proxy that the test cuts right
 * after the server has answered the INSERT into the users table, and then refuses new connections.
 * The sign-in must end in an error redirect (no 5xx, no session cookie), the error must be logged
 * with its cause, and no user or account may be left behind; once the connection is back, the same
 * person signs in and is created exactly once. The checks read the database directly, not through the proxy.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger, SESSION_COOKIE, type RecordingLogger } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { BASE_URL, oauthConfig, oidcProvider, setsSession, signInThroughOp } from "../oauth/fixtures.js";
import { postgresAvailability, scratchPostgres, type ScratchDatabase } from "../adapters/servers.js";
import { causeChain } from "./cause-chain.js";
import { startCuttableProxy, type CuttableProxy } from "./cuttable-proxy.js";
import { postgresAdapter, type AnyKysely, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import type { Adapter, AdapterUser } from "../../../src/types.js";

const skip = await postgresAvailability();

/** What pg reports when its connection is gone, or cannot be made through the cut proxy. */
const CONNECTION_LOST = /Connection terminated|not queryable|ECONNRESET|ECONNREFUSED|timeout/i;
const USERS_INSERT = /insert into "users"/i;
/** A store fault is reported to the browser as itself, on the error page: never as the person's fault. */
const SERVER_FAULT = `${BASE_URL}/error?error=StoreUnavailable`;

/** The errors logged whose causes show the lost connection: their codes and message chains. */
function connectionErrorsLogged(logger: RecordingLogger): { code: string; chain: string[] }[] {
  return logger.entries
    .filter((entry) => entry.level === "error")
    .flatMap((entry) => entry.message.map((message) => ({ code: entry.code, chain: causeChain(message) })))
    .filter(({ chain }) => chain.some((message) => CONNECTION_LOST.test(message)));
}

type Variant = "in one transaction" | "without a transaction";

(skip === undefined ? describe : describe.skip)("a PostgreSQL connection that drops during sign-in", () => {
  let scratch: ScratchDatabase;
  /** Straight to the database, for the checks. */
  let direct: AnyKysely;
  let proxy: CuttableProxy;
  let op: TestProvider;
  const adapters: OwnedSqlAdapter[] = [];

  beforeAll(async () => {
    scratch = await scratchPostgres();
    // postgresAdapter's pool listens for connection errors, so DROP DATABASE ... FORCE after
    // destroy() cannot surface as an unhandled error (scratch.kysely()'s pools do not listen).
    const checks = postgresAdapter(scratch.location);
    adapters.push(checks);
    await checks.migrate();
    direct = checks.db;
    const target = new URL(scratch.location);
    proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    op = await startTestProvider();
  });

  afterEach(() => {
    proxy.disarm();
    proxy.restore();
  });

  afterAll(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.destroy()));
    await proxy?.close();
    await op?.close();
    await scratch?.drop();
  });

  /** The SQL adapter as an application builds it, connected through the proxy. */
  function adapterThroughProxy(): OwnedSqlAdapter {
    const url = new URL(scratch.location);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const adapter = postgresAdapter({ connectionString: url.href, connectionTimeoutMillis: 2000, max: 4 });
    adapters.push(adapter);
    return adapter;
  }

  /**
   * The adapter without `createUserAndLinkAccount`, so the core creates the user, links the account,
   * and removes the user again when the link fails. `onLinkFailed` runs as the link fails; `removed`
   * lists the users the core's clean-up deleted.
   */
  function withoutTransaction(adapter: OwnedSqlAdapter, onLinkFailed: () => void): Adapter & { removed: AdapterUser[] } {
    const { createUserAndLinkAccount: _atomic, migrate: _migrate, destroy: _destroy, db: _db, ...contract } = adapter;
    const removed: AdapterUser[] = [];
    return {
      ...contract,
      removed,
      async linkAccount(account): Promise<void> {
        try {
          await adapter.linkAccount(account);
        } catch (error) {
          onLinkFailed();
          throw error;
        }
      },
      async deleteUser(userId): Promise<void> {
        const user = await adapter.deleteUser(userId);
        if (user) removed.push(user);
      },
    };
  }

  let people = 0;
  /** A person the OP knows and appauth has never seen. */
  function newPerson(): { accountId: string; email: string } {
    const accountId = `person${++people}-${randomUUID().slice(0, 8)}`;
    const email = `${accountId}@example.com`;
    op.accounts.set(accountId, { email, email_verified: true, name: `Person ${people}` });
    return { accountId, email };
  }

  async function rowsOf(person: { accountId: string; email: string }) {
    const users = await direct.selectFrom("users").selectAll().where("email", "=", person.email).execute();
    const accounts = await direct
      .selectFrom("accounts")
      .selectAll()
      .where("provider", "=", "oidc")
      .where("providerAccountId", "=", person.accountId)
      .execute();
    return { users, accounts };
  }

  function browserFor(adapter: Adapter, strategy: "jwt" | "database") {
    const logger = recordingLogger();
    const config = oauthConfig([oidcProvider(op)], { adapter, session: { strategy }, logger });
    return { logger, client: new TestClient(config, BASE_URL) };
  }

  /** A signed-in browser: its first sign-in, with the connection up all along. */
  async function signedIn(adapter: Adapter, strategy: "jwt" | "database") {
    const browser = browserFor(adapter, strategy);
    const person = newPerson();
    const callback = await signInThroughOp(op, browser.client, { accountId: person.accountId });
    expect(setsSession(callback)).toBe(true);
    expect(await browser.client.session()).toMatchObject({ user: { email: person.email } });
    return { ...browser, person };
  }

  describe.each(["jwt", "database"] as const)("with the %s session strategy", (strategy) => {
    it.each<Variant>(["in one transaction", "without a transaction"])(
      "ends a first sign-in whose user is created %s in an error redirect, leaves no user behind, and lets the person in once the connection is back",
      async (variant) => {
        const sql = adapterThroughProxy();
        // Without a transaction, the user row is committed before the cut: the core's clean-up can
        // only remove it if the connection is back by then (a blip, not an outage: see below).
        const plain = variant === "without a transaction" ? withoutTransaction(sql, () => proxy.restore()) : undefined;
        const { logger, client } = browserFor(plain ?? sql, strategy);
        const person = newPerson();

        const cut = proxy.cutAfterAnswer(USERS_INSERT);
        const callback = await signInThroughOp(op, client, { accountId: person.accountId });
        // Resolved only once the server had answered the INSERT: the row existed, uncommitted or committed.
        await cut;

        expect(callback.status).toBe(302);
        expect(callback.headers.get("location")).toBe(SERVER_FAULT);
        expect(setsSession(callback)).toBe(false);
        expect(await client.session()).toBeNull();
        expect(connectionErrorsLogged(logger).map(({ code }) => code)).toContain("StoreUnavailable");

        proxy.restore();
        expect(await rowsOf(person)).toEqual({ users: [], accounts: [] });
        // The clean-up, not the cut, removed the committed user.
        if (plain) expect(plain.removed.map((user) => user.email)).toEqual([person.email]);

        const again = await signInThroughOp(op, client, { accountId: person.accountId });
        expect(again.status).toBe(302);
        expect(setsSession(again)).toBe(true);
        expect(await client.session()).toMatchObject({ user: { email: person.email } });
        const { users, accounts } = await rowsOf(person);
        expect(users).toHaveLength(1);
        expect(accounts).toHaveLength(1);
        expect(accounts[0]!.userId).toBe(users[0]!.id);
      },
    );
  });

  it("without a transaction, an outage that outlasts the sign-in leaves a user the core could not remove, and logs which one", async () => {
    // Why the shipped adapters create and link in one transaction: create-then-link cannot undo a
    // committed user while the database is unreachable. The operator learns which row to remove.
    const plain = withoutTransaction(adapterThroughProxy(), () => {});
    const { logger, client } = browserFor(plain, "jwt");
    const person = newPerson();

    const cut = proxy.cutAfterAnswer(USERS_INSERT);
    const callback = await signInThroughOp(op, client, { accountId: person.accountId });
    await cut;
    expect(callback.headers.get("location")).toBe(SERVER_FAULT);
    expect(setsSession(callback)).toBe(false);
    expect(plain.removed).toEqual([]);

    proxy.restore();
    const { users, accounts } = await rowsOf(person);
    expect(accounts).toEqual([]);
    expect(users).toHaveLength(1);
    const orphan = users[0]!.id as string;
    const cleanup = connectionErrorsLogged(logger).filter(({ code }) => code === "AdapterError");
    expect(cleanup).toHaveLength(1);
    expect(cleanup[0]!.chain[0]).toContain(orphan);
    // Left there, the orphan holds the email, so the same person is now refused (linking is opt-in).
    const again = await signInThroughOp(op, client, { accountId: person.accountId });
    expect(again.headers.get("location")).toBe(`${BASE_URL}/signin?error=OAuthAccountNotLinked`);

    await direct.deleteFrom("users").where("id", "=", orphan).execute();
  });

  it("answers a session read with a typed 503, not a 500 or a sign-out, while the connection is down, and keeps the cookie for when it is back", async () => {
    const { logger, client, person } = await signedIn(adapterThroughProxy(), "database");

    const refusedBefore = proxy.refused;
    proxy.cut();
    // The first reads may meet a pooled connection that is already dead; once the pool has let go
    // of those, a read has to connect anew and is refused. Every read answers the same typed 503.
    for (let read = 0; read < 5 && proxy.refused === refusedBefore; read++) {
      const response = await client.get("/session");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await response.json()).toMatchObject({ error: "StoreUnavailable" });
    }
    expect(proxy.refused).toBeGreaterThan(refusedBefore);
    expect(new Set(connectionErrorsLogged(logger).map(({ code }) => code))).toEqual(new Set(["StoreUnavailable"]));
    // Not a rejected session, only an unreadable one: clearing the cookie would sign everyone out.
    expect(client.cookieNames()).toContain(SESSION_COOKIE);

    proxy.restore();
    expect(await client.session()).toMatchObject({ user: { email: person.email } });
  });

  it("keeps reading a JWT session while the database is down: the cookie alone carries it", async () => {
    const { client, person } = await signedIn(adapterThroughProxy(), "jwt");
    proxy.cut();
    expect(await client.session()).toMatchObject({ user: { email: person.email } });
  });
});
