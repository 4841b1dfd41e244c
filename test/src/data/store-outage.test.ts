/**
 * When the store is down or hangs (issue 20). The shipped PostgreSQL, MariaDB and Redis adapters talk to their
 * real servers through a proxy the test cuts (connections destroyed, new ones refused) or stalls
 * (connections accepted, nothing forwarded). Each time, with a short configured limit (300 ms), every
 * request finishes with the typed answer — `StoreUnavailable`: 503 + Retry-After on GET /session, the
 * error page for a sign-in step — never a sign-out, never the person's fault; nothing is written half;
 * and once the store is back the same cookie reads the same session. No assertion is about time:
 * "bounded" means the request returns at all, which a hung store would never let it do unbounded.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { NextRequest } from "next/server.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import AppAuth from "../../../integrations/next/index.js";
import ReactiveAuth, { type AuthRequestEvent, type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { RedisAdapter } from "../../../src/adapters/redis/index.js";
import { getSession, refreshedSession } from "../../../src/client/fetch-client.js";
import { Auth } from "../../../src/handler.js";
import { mysqlAdapter, postgresAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { readSession } from "../../../src/server/session.js";
import type { Adapter, AuthConfig } from "../../../src/types.js";
import { BASE_URL, SESSION_COOKIE, testConfig, type RecordingLogger, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { oidcProvider, setsSession, signInThroughOp } from "../oauth/fixtures.js";
import {
  deleteKeys,
  mysqlAvailability,
  postgresAvailability,
  REDIS_URL,
  redisAvailability,
  runId,
  scratchMysql,
  scratchPostgres,
  type ScratchDatabase,
} from "../adapters/servers.js";
import { causeChain } from "./cause-chain.js";
import { startCuttableProxy, type CuttableProxy } from "./cuttable-proxy.js";

/** Short on purpose: the tests wait this long per stalled call, and assert only the answer. */
const TIMEOUT = 300;
const STORE_FAULT = `${BASE_URL}/error?error=StoreUnavailable`;

const postgresSkip = await postgresAvailability();
const mysqlSkip = await mysqlAvailability();
const redisSkip = await redisAvailability();

/** A store as an application uses it (through the proxy), and the same store straight, for set-up and checks. */
interface Store {
  proxy: CuttableProxy;
  adapter: Adapter;
  direct: Adapter;
  /** How many verification tokens are stored for `identifier`. */
  tokensFor(identifier: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * An SQL store in a scratch database: migrated straight, used through the proxy. `connect` builds the
 * adapter as an application would, from a connection URL and the adapter options.
 */
async function sqlStore(
  scratch: ScratchDatabase,
  defaultPort: number,
  connect: (url: string, options: { timeout?: number }) => OwnedSqlAdapter,
): Promise<Store> {
  const direct = connect(scratch.location, {});
  await direct.migrate();
  const target = new URL(scratch.location);
  const proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || defaultPort) });
  const proxied = new URL(scratch.location);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  const adapter = connect(proxied.href, { timeout: TIMEOUT });
  return {
    proxy,
    adapter,
    direct,
    async tokensFor(identifier) {
      const rows = await direct.db.selectFrom("verification_tokens").select("identifier").where("identifier", "=", identifier).execute();
      return rows.length;
    },
    async close() {
      await proxy.close();
      await adapter.destroy();
      await direct.destroy();
      await scratch.drop();
    },
  };
}

const postgresStore = async (): Promise<Store> =>
  sqlStore(await scratchPostgres(), 5432, (url, options) => postgresAdapter({ connectionString: url, max: 4 }, options));
const mysqlStore = async (): Promise<Store> =>
  sqlStore(await scratchMysql(), 3306, (url, options) => mysqlAdapter({ uri: url, connectionLimit: 4 }, options));

async function redisStore(): Promise<Store> {
  const target = new URL(REDIS_URL);
  const proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
  // A shared Redis, as many applications run it: the client's own keyPrefix keeps this one apart.
  const keyPrefix = `${runId()}:`;
  const proxied = new Redis({ host: "127.0.0.1", port: proxy.port, keyPrefix, retryStrategy: () => 50 });
  // ioredis reports each failed reconnection; the adapter's calls carry the fault that matters.
  proxied.on("error", () => {});
  const straight = new Redis(REDIS_URL, { keyPrefix });
  const direct = RedisAdapter(straight);
  return {
    proxy,
    adapter: RedisAdapter(proxied, { timeout: TIMEOUT }),
    direct,
    async tokensFor(identifier) {
      const [, found] = await straight.scan("0", "MATCH", `${keyPrefix}verification:${identifier}:*`, "COUNT", 10_000);
      return found.length;
    },
    async close() {
      await proxy.close();
      proxied.disconnect();
      const cleaner = new Redis(REDIS_URL);
      await deleteKeys(cleaner, keyPrefix);
      cleaner.disconnect();
      straight.disconnect();
    },
  };
}

/** Mail is handed to this function, not sent: what matters here is whether any was. */
function configFor(adapter: Adapter, mailed: string[], overrides: Partial<AuthConfig> = {}): TestConfig {
  return testConfig({
    adapter,
    session: { strategy: "database" },
    providers: [
      Nodemailer({
        server: "smtp://127.0.0.1:1",
        from: "no-reply@example.test",
        sendVerificationRequest: async ({ identifier }) => void mailed.push(identifier),
      }),
    ],
    ...overrides,
  });
}

/** A signed-in person: a user and a session written straight to the store, its token in the browser. */
async function signedIn(store: Store, config: TestConfig): Promise<{ client: TestClient; email: string; token: string }> {
  const email = `person-${randomUUID().slice(0, 8)}@example.test`;
  const user = await store.direct.createUser!({ id: randomUUID(), email, emailVerified: null });
  const token = randomUUID();
  await store.direct.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 3_600_000) });
  const client = new TestClient(config, BASE_URL);
  client.setCookie(SESSION_COOKIE, token);
  expect(await client.session()).toMatchObject({ user: { email } });
  return { client, email, token };
}

/** The StoreUnavailable errors logged: each one's message chain (which names the adapter call and its error). */
function storeFaultsLogged(logger: RecordingLogger): string[][] {
  return logger.entries
    .filter((entry) => entry.level === "error" && entry.code === "StoreUnavailable")
    .flatMap((entry) => entry.message.map(causeChain));
}

async function expectTypedSessionFault(client: TestClient): Promise<void> {
  const response = await client.get("/session");
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  expect(response.headers.get("cache-control")).toContain("no-store");
  expect(await response.json()).toMatchObject({ error: "StoreUnavailable" });
}

/** Reads until the store answers again (a client may first meet a connection it has to replace). */
async function sessionOnceBack(client: TestClient): Promise<unknown> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await client.get("/session");
    if (response.status === 200) return response.json();
    expect(response.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the store never answered again");
}

const stores = [
  { name: "PostgreSQL", skip: postgresSkip, open: postgresStore },
  { name: "MariaDB", skip: mysqlSkip, open: mysqlStore },
  { name: "Redis", skip: redisSkip, open: redisStore },
] as const;

for (const { name, skip, open } of stores) {
  (skip === undefined ? describe : describe.skip)(`${name} cut or stalled: bounded, typed answers and recovery`, () => {
    let store: Store;

    beforeAll(async () => {
      store = await open();
    });
    afterEach(() => store.proxy.restore());
    afterAll(async () => {
      await store?.close();
    });

    describe.each(["cut", "stall"] as const)("a %s", (fault) => {
      const fail = () => (fault === "cut" ? store.proxy.cut() : store.proxy.stall());

      it("answers a session read with 503 StoreUnavailable, keeps the cookie, logs the adapter's error, and reads the session again once the store is back", async () => {
        const config = configFor(store.adapter, []);
        const { client, email, token } = await signedIn(store, config);
        fail();
        await expectTypedSessionFault(client);
        expect(client.cookie(SESSION_COOKIE)).toBe(token);
        const logged = storeFaultsLogged(config.logger);
        expect(logged.length).toBeGreaterThan(0);
        // The log names the adapter call that failed.
        expect(logged[0]![0]).toMatch(/getSessionAndUser/);
        expect(config.logger.codes("error")).not.toContain("SessionTokenError");

        store.proxy.restore();
        expect(await sessionOnceBack(client)).toMatchObject({ user: { email } });
      });

      it("gives server code null (fail closed) and says the store was unavailable, not that nobody is signed in", async () => {
        const config = configFor(store.adapter, []);
        const { token } = await signedIn(store, config);
        fail();
        const request = new Request(`${BASE_URL}/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
        const read = await readSession(request, config);
        expect(read.session).toBeNull();
        expect(read.unavailable).toBe(true);
      });

      it("answers middleware with 503, not a redirect to sign in, for a signed-in person", async () => {
        const config = configFor(store.adapter, [], { callbacks: { authorized: ({ auth }: { auth: unknown }) => Boolean(auth) } } as Partial<AuthConfig>);
        const { token } = await signedIn(store, config);
        const { auth } = AppAuth(config);
        const request = () => new NextRequest("http://localhost:3000/dashboard", { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
        fail();
        const response = await auth(request());
        expect(response.status).toBe(503);
        expect(response.headers.get("location")).toBeNull();
        expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);

        store.proxy.restore();
        let passed = false;
        for (let attempt = 0; attempt < 100 && !passed; attempt++) {
          const again = await auth(request());
          passed = again.headers.get("x-middleware-next") === "1";
          if (!passed) expect(again.status).toBe(503);
        }
        expect(passed).toBe(true);
      });

      it("answers SolidStart's middleware for a protected page with 503, not a redirect to sign in", async () => {
        const config = configFor(store.adapter, []);
        const { token } = await signedIn(store, config);
        const guard = ReactiveAuth(config as ReactiveAuthConfig).middleware({ protect: ["/account"] });
        const event = (): AuthRequestEvent => ({
          request: new Request("http://localhost:3000/account", { headers: { cookie: `${SESSION_COOKIE}=${token}` } }),
          locals: {},
          response: { headers: new Headers() },
        });
        fail();
        const response = await guard(event());
        expect(response?.status).toBe(503);
        expect(response?.headers.get("location")).toBeNull();

        store.proxy.restore();
        let passed = false;
        for (let attempt = 0; attempt < 100 && !passed; attempt++) passed = (await guard(event())) === undefined;
        expect(passed).toBe(true);
      });

      it("leaves the browser client with the session it showed, and replaces it once the store answers", async () => {
        const config = configFor(store.adapter, []);
        const { token, email } = await signedIn(store, config);
        // The browser's side over real HTTP: the server plays a browser's cookie jar with the session cookie.
        const server = createServer((req, res) => {
          const request = new Request(`${BASE_URL.replace(/\/auth$/, "")}${req.url}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
          void Auth(request, config).then(async (response) => {
            res.writeHead(response.status, Object.fromEntries(response.headers));
            res.end(await response.text());
          });
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        try {
          const basePath = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth`;
          const shown = (await refreshedSession(null, { basePath }))!;
          expect(shown).toMatchObject({ user: { email } });
          fail();
          expect(await refreshedSession(shown, { basePath })).toBe(shown);
          // The plain read still says what it can: no session it could vouch for.
          expect(await getSession({ basePath })).toBeNull();
          store.proxy.restore();
          let fresh: unknown = shown;
          for (let attempt = 0; attempt < 100 && fresh === shown; attempt++) fresh = await refreshedSession(shown, { basePath });
          expect(fresh).not.toBe(shown);
          expect(fresh).toMatchObject({ user: { email } });
        } finally {
          await new Promise((resolve) => server.close(resolve));
        }
      });

      it("answers an email sign-in request with StoreUnavailable, not AccessDenied, stores no token and sends no mail", async () => {
        const mailed: string[] = [];
        const config = configFor(store.adapter, mailed);
        const client = new TestClient(config, BASE_URL);
        const csrfToken = await client.csrf();
        const address = `asker-${randomUUID().slice(0, 8)}@example.test`;
        fail();
        const response = await client.post("/signin/nodemailer", { csrfToken, email: address });
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe(STORE_FAULT);
        expect(config.logger.codes("error")).toContain("StoreUnavailable");
        expect(config.logger.codes("warn")).not.toContain("AccessDenied");
        expect(mailed).toEqual([]);

        store.proxy.restore();
        expect(await store.tokensFor(address)).toBe(0);
        // Once back, the same request goes through.
        let sent = false;
        for (let attempt = 0; attempt < 100 && !sent; attempt++) {
          const again = await client.post("/signin/nodemailer", { csrfToken, email: address });
          sent = new URL(again.headers.get("location")!).pathname === "/auth/verify-request";
        }
        expect(sent).toBe(true);
        expect(mailed).toEqual([address]);
      });
    });
  });
}

(postgresSkip === undefined ? describe : describe.skip)("PostgreSQL stalled in the middle of a first sign-in", () => {
  let store: Store;
  let op: TestProvider;

  beforeAll(async () => {
    store = await postgresStore();
    op = await startTestProvider();
  });
  afterAll(async () => {
    await op?.close();
    await store?.close();
  });

  it("ends the sign-in with StoreUnavailable once the user is inserted and the link hangs, leaves no user behind, and lets the person in once back", async () => {
    const config = testConfig({ adapter: store.adapter, session: { strategy: "database" }, providers: [oidcProvider(op)] });
    const client = new TestClient(config, BASE_URL);
    const accountId = `stalled-${randomUUID().slice(0, 8)}`;
    const email = `${accountId}@example.com`;
    op.accounts.set(accountId, { email, email_verified: true, name: "Stalled" });

    const stalled = store.proxy.stallAfterAnswer(/insert into "users"/i);
    const callback = await signInThroughOp(op, client, { accountId });
    await stalled;
    expect(callback.headers.get("location")).toBe(STORE_FAULT);
    expect(setsSession(callback)).toBe(false);

    store.proxy.restore();
    expect(await store.direct.getUserByEmail!(email)).toBeNull();
    expect(await store.direct.getUserByAccount!({ provider: "oidc", providerAccountId: accountId })).toBeNull();

    const again = await signInThroughOp(op, client, { accountId });
    expect(setsSession(again)).toBe(true);
    expect(await client.session()).toMatchObject({ user: { email } });
  });
});
