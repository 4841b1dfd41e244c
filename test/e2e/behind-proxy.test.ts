/**
 * The client address behind a reverse proxy, over real HTTP. Visitors connect from distinct
 * loopback addresses (127.0.x.y) to a tiny proxy (test/helpers/reverse-proxy.ts) that appends the
 * address it saw to X-Forwarded-For; the proxy reaches the app through the Node bridge, so the
 * app's socket address is always the proxy's.
 */
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { toNodeListener } from "../../demo/node-http.js";
import { MemoryAdapter } from "../../src/adapters/memory/index.js";
import { Auth } from "../../src/handler.js";
import { Email } from "../../src/providers/email.js";
import type { AuthConfig } from "../../src/types.js";
import { recordingLogger, testConfig, type TestConfig } from "../helpers/config.js";
import { rawRequest, type RawAnswer, type RawRequest } from "../helpers/raw-http.js";
import { listen, reverseProxy, visitor } from "../helpers/reverse-proxy.js";

/** One HTTP exchange from the local address `from`. */
const send = (port: number, from: string, options: Omit<RawRequest, "from" | "host">): Promise<RawAnswer> =>
  rawRequest(port, { ...options, from, host: "127.0.0.1" });

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** The app on the Node bridge behind `proxies` proxies (one by default); the port visitors use, and the app's own. */
async function behindProxies(config: AuthConfig, proxies = 1): Promise<{ port: number; appPort: number }> {
  const app = createServer(toNodeListener((request) => Auth(request, config)));
  servers.push(app);
  const appPort = await listen(app);
  let port = appPort;
  for (let i = 0; i < proxies; i++) {
    const proxy = reverseProxy(port);
    servers.push(proxy);
    port = await listen(proxy);
  }
  return { port, appPort };
}

const behindProxy = async (config: AuthConfig): Promise<number> => (await behindProxies(config)).port;

/** A POST every request ceiling counts: without a CSRF token it is refused with 400, past the ceiling with 429. */
const post = (port: number, from: string) => send(port, from, { method: "POST", path: "/auth/session", headers: { "content-type": "application/json" }, body: "{}" });

describe("behind a reverse proxy, through the Node bridge", () => {
  it("with trustProxy, one visitor's 101 requests do not refuse the next 100 visitors", async () => {
    const port = await behindProxy(testConfig({ rateLimit: { trustProxy: true } }));
    const flood: number[] = [];
    for (let i = 0; i < 101; i++) flood.push((await post(port, visitor(0))).status);
    expect(flood.slice(0, 100).every((status) => status === 400)).toBe(true);
    expect(flood[100]).toBe(429);

    const others = await Promise.all(Array.from({ length: 100 }, (_, n) => post(port, visitor(n + 1))));
    expect(others.map((answer) => answer.status)).toEqual(Array<number>(100).fill(400));
  });

  it("with trustProxy, 100 visitors each spend their own budget, to the last request of it", async () => {
    const port = await behindProxy(testConfig({ rateLimit: { trustProxy: true, requests: { perClient: 3, window: 60 } } }));
    const spent = await Promise.all(
      Array.from({ length: 100 }, async (_, n) => {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await post(port, visitor(n))).status);
        return statuses;
      }),
    );
    expect(new Set(spent.map((statuses) => statuses.join()))).toEqual(new Set(["400,400,400,429"]));
  });

  it("with trustProxy, 25 visitors each get the sign-in link they ask for (20 per client address an hour)", async () => {
    const sent: string[] = [];
    const config = testConfig({
      adapter: MemoryAdapter(),
      providers: [Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) })],
      rateLimit: { trustProxy: true },
    });
    const port = await behindProxy(config);
    for (let n = 0; n < 25; n++) {
      const from = visitor(n);
      const csrf = await send(port, from, { path: "/auth/csrf" });
      const cookie = [csrf.headers["set-cookie"] ?? []].flat().map((line) => line.split(";")[0]).join("; ");
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
      const answer = await send(port, from, {
        method: "POST",
        path: "/auth/signin/email",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email: `visitor${n}@example.test` }).toString(),
      });
      expect(new URL(answer.headers.location!).pathname).toBe("/auth/verify-request");
    }
    expect(sent).toHaveLength(25);
  });

  it("without trustProxy, counts every visitor as the proxy and warns once that the address is a proxy's", async () => {
    const logger = recordingLogger();
    const port = await behindProxy(testConfig({ logger, rateLimit: { requests: { perClient: 3, window: 60 } } }) as TestConfig);
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await post(port, visitor(n))).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect(logger.codes("warn").filter((code) => code === "ProxyNotTrusted")).toHaveLength(1);
  });

  it("with trustProxy: 2 and two proxies, visitors get their own budgets; one who goes around them and forges a shorter chain is counted by their own address", async () => {
    const logger = recordingLogger();
    const { port, appPort } = await behindProxies(testConfig({ logger, rateLimit: { trustProxy: 2, requests: { perClient: 3, window: 60 } } }) as TestConfig, 2);
    const through = await Promise.all(Array.from({ length: 10 }, (_, n) => Promise.all([post(port, visitor(n)), post(port, visitor(n))])));
    expect(through.flat().map((answer) => answer.status)).toEqual(Array<number>(20).fill(400));
    expect(logger.codes("warn")).not.toContain("ForwardedForTooShort");

    const forged: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await send(appPort, visitor(99), {
        method: "POST",
        path: "/auth/session",
        headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i + 1}` },
        body: "{}",
      });
      forged.push(answer.status);
    }
    expect(forged).toEqual([400, 400, 400, 429, 429]);
    expect(logger.codes("warn")).toContain("ForwardedForTooShort");
  });
});
