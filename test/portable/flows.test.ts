/**
 * The portable suite (issue 31): the installed package (`npm pack` → a temp project) serving the same
 * app (test/portable/app) on every runtime's own server — node:http on Node 20/22/24, Bun.serve,
 * Deno.serve, a workerd fetch handler with no compatibility flag — driven over HTTP from here. The
 * test OP and a stand-in for Resend's API stay in this process, reached over loopback.
 *
 * Runtimes come from scripts/install-runtimes.mjs. One that is not installed is skipped, loudly;
 * with CI=true every runtime must be there. The outcome per runtime and flow is written to
 * test/.artifacts/portable-results.json (scripts/runtime-table.mjs turns it into the README table).
 */
import { createServer, type Server } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../helpers/oidc-provider.js";
import { Browser, locationOf } from "./browser.js";
import { findRuntimes, freePort, prepareProject, ROOT, startApp, versionOf, type Project, type Runtime, type RunningApp } from "./harness.js";
import type { Flow } from "./flows.js";

const SECRET = "portable-secret-9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f";
const REDIS_URL = "redis://127.0.0.1:6379";
const RUN = `${process.pid}-${Date.now().toString(36)}`;
const SESSION_COOKIE = "appauth.session-token";

const runtimes = findRuntimes();
const installed = runtimes.filter((runtime) => runtime.binary);
const missing = runtimes.filter((runtime) => !runtime.binary);
if (missing.length && !process.env.CI) {
  console.warn(
    `\n*** portable suite: SKIPPED on ${missing.map((runtime) => runtime.label).join(", ")} (not installed; run \`node scripts/install-runtimes.mjs\`) ***\n`,
  );
}

interface Mail {
  authorization: string | null;
  to: string;
  text: string;
}

/** Resend's `POST /emails`, as far as the provider uses it: records the message, answers with an id. */
function startMailStandIn(mails: Mail[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/emails") return void res.writeHead(404).end();
      const message = JSON.parse(body) as { to: string; text: string };
      mails.push({ authorization: req.headers.authorization ?? null, to: message.to, text: message.text });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `mail-${mails.length}` }));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

const mails: Mail[] = [];
const apps = new Map<string, RunningApp>();
const results: Record<string, { label: string; version: string; store?: string; flows: Partial<Record<Flow, "passed" | "failed">> }> = {};
let op: TestProvider;
let mail: { server: Server; url: string };
let project: Project;
let redis: Redis;

beforeAll(async () => {
  if (!installed.length) return;
  const ports = new Map<string, number>();
  for (const runtime of installed) ports.set(runtime.id, await freePort());
  const redirects = [...ports.values()].flatMap((port) => ["auth", "db"].map((base) => `http://127.0.0.1:${port}/${base}/callback/oidc`));
  [op, mail, project] = await Promise.all([
    startTestProvider({ clients: [{ ...CONFIDENTIAL_CLIENT, redirect_uris: redirects }] }),
    startMailStandIn(mails),
    prepareProject(),
  ]);
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // Every runtime starts at once; each has its own process, port and Redis prefix.
  await Promise.all(
    installed.map(async (runtime) => {
      const app = await startApp(runtime, project, ports.get(runtime.id)!, {
        SECRET,
        ISSUER: op.issuer,
        CLIENT_ID: CONFIDENTIAL_CLIENT.client_id,
        CLIENT_SECRET: CONFIDENTIAL_CLIENT.client_secret!,
        MAIL_API: mail.url,
        RUNTIME: runtime.id,
        REDIS_URL,
        REDIS_PREFIX: prefixOf(runtime),
      });
      apps.set(runtime.id, app);
      const whoami = (await (await fetch(`${app.origin}/whoami`)).json()) as { store: string };
      results[runtime.id] = { label: runtime.label, version: versionOf(runtime), store: whoami.store, flows: {} };
    }),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.stop()));
  if (redis) {
    const keys = await redis.keys(`portable:${RUN}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  await op?.close();
  mail?.server.close();
  project?.cleanup();
  if (installed.length) {
    mkdirSync(join(ROOT, "test/.artifacts"), { recursive: true });
    // In runtimes.json's order, whatever order the servers started in.
    const ordered = Object.fromEntries(installed.filter((runtime) => results[runtime.id]).map((runtime) => [runtime.id, results[runtime.id]]));
    const record = { runtimes: ordered, skipped: missing.map((runtime) => runtime.id) };
    writeFileSync(join(ROOT, "test/.artifacts/portable-results.json"), `${JSON.stringify(record, null, 2)}\n`);
  }
});

function prefixOf(runtime: Runtime): string {
  return `portable:${RUN}:${runtime.id}:`;
}

it.skipIf(!process.env.CI)("finds every runtime of runtimes.json installed (CI installs them with scripts/install-runtimes.mjs)", () => {
  expect(missing.map((runtime) => runtime.id)).toEqual([]);
});

// Runtimes are independent (own process, port, addresses, mail addresses, Redis prefix): their tests run side by side.
describe.concurrent.each(installed)("on $label", (runtime) => {
  const app = () => apps.get(runtime.id)!;
  const browser = (name: string) => new Browser(app().origin, `${runtime.id}-${name}`);
  /** A test whose outcome goes into the results file under `name`. */
  const flow = (name: Flow, title: string, body: () => Promise<void>) =>
    it(title, async () => {
      try {
        await body();
        results[runtime.id]!.flows[name] = "passed";
      } catch (error) {
        results[runtime.id]!.flows[name] = "failed";
        throw new Error(`${(error as Error).message}\n--- ${runtime.id} printed:\n${app().output().slice(-4000)}`, { cause: error });
      }
    });

  async function signInWithPassword(client: Browser, password: string): Promise<Response> {
    return client.post("/auth", "/callback/credentials", { username: "ada", password, callbackUrl: "/dashboard" });
  }

  /** Asks for a link on `basePath`, reads it from the stand-in's mailbox, follows it. */
  async function signInByEmail(client: Browser, basePath: string, email: string): Promise<Response> {
    const asked = await client.post(basePath, "/signin/resend", { email, callbackUrl: "/dashboard" });
    expect(asked.status).toBe(302);
    expect(locationOf(asked, app().origin).pathname).toBe(`${basePath}/verify-request`);
    const sent = mails.filter((message) => message.to === email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.authorization).toBe("Bearer re_test_key");
    const link = sent[0]!.text.match(/https?:\/\/\S+/)?.[0];
    expect(link).toBeDefined();
    expect(new URL(link!).pathname).toBe(`${basePath}/callback/resend`);
    return client.get(link!);
  }

  flow("pages", "serves the built-in sign-in, sign-out, verify-request and error pages", async () => {
    const client = browser("pages");
    const signIn = await client.get("/auth/signin");
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await signIn.text();
    for (const expected of ['name="username"', 'name="password"', "Test OP", "Resend"]) expect(html).toContain(expected);
    for (const path of ["/auth/signout", "/auth/verify-request", "/auth/error?error=Verification"]) {
      const page = await client.get(path);
      expect([path, page.status, page.headers.get("content-type")]).toEqual([path, expect.any(Number), expect.stringMatching(/^text\/html/)]);
      expect(page.status).toBeLessThan(500);
    }
    // Bad input is a typed page, never a 500 nor an echo of the markup.
    const hostile = await client.get("/auth/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(hostile.status).toBeLessThan(500);
    expect(await hostile.text()).not.toContain("<script>alert(1)");
  });

  flow("credentials", "signs in with credentials and reads the JWT session", async () => {
    const client = browser("credentials");
    const signedIn = await signInWithPassword(client, "correct horse battery staple");
    expect(signedIn.status).toBe(302);
    expect(locationOf(signedIn, app().origin).pathname).toBe("/dashboard");
    expect(client.cookie(SESSION_COOKIE)?.split(".")).toHaveLength(5); // a JWE
    expect(await client.session("/auth")).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } });
  });

  flow("signout", "signs out: the session cookie is cleared and the session reads null", async () => {
    const client = browser("signout");
    await signInWithPassword(client, "correct horse battery staple");
    expect(await client.session("/auth")).not.toBeNull();
    const signedOut = await client.post("/auth", "/signout", { callbackUrl: "/bye" });
    expect(signedOut.status).toBe(302);
    expect(locationOf(signedOut, app().origin).pathname).toBe("/bye");
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await client.session("/auth")).toBeNull();
  });

  flow("oidc", "signs in through the test OpenID Provider", async () => {
    const client = browser("oidc");
    const started = await client.post("/auth", "/signin/oidc", { callbackUrl: "/dashboard" });
    expect(started.status).toBe(302);
    const authorization = locationOf(started, app().origin);
    expect(authorization.origin).toBe(op.issuer);
    const back = await op.authorize(authorization.href, { accountId: "ada" });
    expect(back.method).toBe("GET");
    const callback = await client.get(back.url);
    expect(callback.status).toBe(302);
    expect(locationOf(callback, app().origin).pathname).toBe("/dashboard");
    expect(await client.session("/auth")).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } });
  });

  flow("email", "signs in with an email link sent through Resend's HTTP API (a local stand-in)", async () => {
    const client = browser("email");
    const email = `${runtime.id}-jwt@portable.test`;
    const followed = await signInByEmail(client, "/auth", email);
    expect(followed.status).toBe(302);
    expect(locationOf(followed, app().origin).pathname).toBe("/dashboard");
    expect(await client.session("/auth")).toMatchObject({ user: { email } });
  });

  flow("passkey", "answers the passkey options route with a challenge", async () => {
    const client = browser("passkey");
    const response = await client.get("/auth/webauthn-options/passkey?action=authenticate");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { action: string; options: { challenge: string } };
    expect(body.action).toBe("authenticate");
    expect(body.options.challenge).toMatch(/^[\w-]{16,}$/);
  });

  flow("rate-limit", "refuses password attempts past the limit, in memory, the right password included", async () => {
    const client = browser("rate-limit");
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await signInWithPassword(client, "wrong");
      expect(locationOf(refused, app().origin).searchParams.get("error")).toBe("CredentialsSignin");
    }
    const limited = await signInWithPassword(client, "correct horse battery staple");
    expect(locationOf(limited, app().origin).searchParams.get("error")).toBe("RateLimited");
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    // Another client still signs in: the limit is per client, not a lockout.
    const other = browser("rate-limit-other");
    expect((await signInWithPassword(other, "correct horse battery staple")).status).toBe(302);
    expect(other.cookie(SESSION_COOKIE)).toBeDefined();
  });

  flow("database-session", "keeps a database session in the store it reaches, and ends it on sign-out", async () => {
    const client = browser("database");
    const email = `${runtime.id}-db@portable.test`;
    const followed = await signInByEmail(client, "/db", email);
    expect(followed.status).toBe(302);
    const token = client.cookie(SESSION_COOKIE);
    expect(token).toBeDefined();
    expect(token!.split(".")).not.toHaveLength(5); // a session id, not a JWE
    expect(await client.session("/db")).toMatchObject({ user: { email } });
    if (results[runtime.id]!.store?.startsWith("Redis")) {
      expect(await redis.keys(`${prefixOf(runtime)}session:*`)).toHaveLength(1);
    }
    const replay = new Browser(app().origin, `${runtime.id}-database-replay`);
    await client.post("/db", "/signout");
    expect(await client.session("/db")).toBeNull();
    // Ended in the store: the old cookie, replayed, reads nothing.
    const replayed = await fetch(`${app().origin}/db/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}`, "x-portable-client": replay.client } });
    expect(await replayed.json()).toBeNull();
    if (results[runtime.id]!.store?.startsWith("Redis")) {
      expect(await redis.keys(`${prefixOf(runtime)}session:*`)).toHaveLength(0);
    }
  });
});
