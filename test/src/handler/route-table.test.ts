/**
 * The route table (src/routes.ts) as the handler applies it: for every row and every provider type,
 * a request through `Auth` answers as the row says. A type the row does not serve is a 400
 * UnknownAction; a row that needs the CSRF token refuses a POST without it and lets one with it
 * through; a row that does not need it never asks for it. Flipping a row's CSRF flag fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import { routePath, ROUTES, type Route } from "../../../src/routes.js";
import type { ProviderType } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, BASE_URL, passwordProvider, testConfig, type TestConfig } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { oidcProvider, plainOAuthProvider } from "../oauth/fixtures.js";

/** The configured provider of each type. */
const PROVIDER_OF: Record<ProviderType, string> = { oauth: "plain", oidc: "oidc", email: "mail", credentials: "credentials", webauthn: "passkey" };
const TYPES = Object.keys(PROVIDER_OF) as ProviderType[];

interface Case {
  method: Route["method"];
  path: string;
  /** The request's path under the base path. */
  url: string;
  type?: ProviderType;
  /** The row that serves the request; none for a provider type its route does not serve. */
  row?: Route;
}

/** Every row, and for a route that names a provider, every provider type at it. */
function cases(): Case[] {
  const seen = new Set<string>();
  const out: Case[] = [];
  for (const row of ROUTES) {
    const path = routePath(row);
    if (seen.has(`${row.method} ${path}`)) continue;
    seen.add(`${row.method} ${path}`);
    if (!row.providers) {
      out.push({ method: row.method, path, url: path, row });
      continue;
    }
    for (const type of TYPES) {
      const serving = ROUTES.find((r) => r.method === row.method && r.action === row.action && r.providers?.includes(type));
      out.push({ method: row.method, path, url: `/${row.action}/${PROVIDER_OF[type]}`, type, ...(serving ? { row: serving } : {}) });
    }
  }
  return out;
}

let op: TestProvider;
let config: TestConfig;

beforeAll(async () => {
  op = await startTestProvider();
  config = testConfig({
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [passwordProvider(), oidcProvider(op), plainOAuthProvider(op), { id: "mail", name: "Email", type: "email", sendVerificationRequest: async () => {} }, Passkey()],
  });
});

afterAll(async () => {
  await op?.close();
});

/** A browser signed in with a password, holding a CSRF cookie; and the token that goes with it. */
async function signedIn(): Promise<{ client: TestClient; csrfToken: string }> {
  const client = new TestClient(config);
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  return { client, csrfToken: await client.csrf() };
}

/** The typed refusal of a request no row serves (UnknownAction, InvalidProvider), if that is the answer. */
async function typedRefusal(response: Response): Promise<string | undefined> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  const body = (await response.clone().json()) as { error?: unknown } | null;
  return body?.error === "UnknownAction" || body?.error === "InvalidProvider" ? body.error : undefined;
}

/** Whether the answer is a CSRF refusal: the sign-in page with MissingCSRF, or (POST /session) a 400 `null`. */
async function refusedForCsrf(response: Response): Promise<boolean> {
  if (response.status === 400) return (await response.clone().text()) === "null";
  return new URL(response.headers.get("location") ?? "/", BASE_URL).searchParams.get("error") === "MissingCSRF";
}

/**
 * Which POSTs need the CSRF token, written out apart from the table (so a flag flipped there fails
 * here): every POST a browser makes changes state; a provider's form_post callback is protected by
 * its state and PKCE checks instead, and a logout token by its signature.
 */
const NEEDS_CSRF: Record<string, boolean> = {
  "/session": true,
  "/sessions": true,
  "/signout": true,
  "/signin/:provider oauth": true,
  "/signin/:provider oidc": true,
  "/signin/:provider email": true,
  "/signin/:provider credentials": true,
  "/callback/:provider oauth": false,
  "/callback/:provider oidc": false,
  "/callback/:provider credentials": true,
  "/callback/:provider webauthn": true,
  "/two-factor-challenge": true,
  "/backchannel-logout/:provider oauth": false,
  "/backchannel-logout/:provider oidc": false,
  "/two-factor": true,
  "/step-up": true,
};

const csrfKey = (c: Case): string => (c.type ? `${c.path} ${c.type}` : c.path);

describe("the route table, through the handler", () => {
  const all = cases();

  it("covers every row, and every provider type at each provider route", () => {
    for (const row of ROUTES) expect(all.some((c) => c.row === row), `${row.method} ${routePath(row)} ${row.providers?.join(",") ?? ""}`).toBe(true);
    expect(all.filter((c) => !c.row).length).toBeGreaterThan(0);
  });

  const unserved = all.filter((c) => !c.row);
  it.each(unserved.map((c) => [c.method, c.path, c.type!, c] as const))(
    "%s %s answers 400 UnknownAction for a %s provider, which it does not serve, even with the CSRF token",
    async (method, _path, _type, c) => {
      const { client, csrfToken } = await signedIn();
      const response = method === "GET" ? await client.get(c.url) : await client.post(c.url, { csrfToken });
      expect(response.status).toBe(400);
      expect(await typedRefusal(response)).toBe("UnknownAction");
    },
  );

  const gets = all.filter((c) => c.row && c.method === "GET");
  it.each(gets.map((c) => [c.url, c] as const))("GET %s is served: neither refused as unknown nor a 5xx", async (_url, c) => {
    const { client } = await signedIn();
    const response = await client.get(c.url);
    expect(response.status).toBeLessThan(500);
    expect(await typedRefusal(response)).toBeUndefined();
  });

  const posts = all.filter((c) => c.row && c.method === "POST");
  it("has a CSRF rule below for every POST it serves, and the table agrees with it", () => {
    for (const c of posts) expect(c.row!.csrf, csrfKey(c)).toBe(NEEDS_CSRF[csrfKey(c)]);
  });

  const guarded = posts.filter((c) => NEEDS_CSRF[csrfKey(c)] === true);
  it.each(guarded.map((c) => [c.url, c] as const))("POST %s needs the CSRF token: refused without it, served with it", async (_url, c) => {
    const without = await (await signedIn()).client.post(c.url, {});
    expect(without.status).toBeLessThan(500);
    expect(await refusedForCsrf(without)).toBe(true);

    const { client, csrfToken } = await signedIn();
    const withToken = await client.post(c.url, { csrfToken });
    expect(withToken.status).toBeLessThan(500);
    expect(await refusedForCsrf(withToken)).toBe(false);
    expect(await typedRefusal(withToken)).toBeUndefined();
  });

  const unguarded = posts.filter((c) => NEEDS_CSRF[csrfKey(c)] === false);
  it.each(unguarded.map((c) => [c.url, c] as const))("POST %s is protected otherwise: served without the CSRF token", async (_url, c) => {
    const response = await (await signedIn()).client.post(c.url, {});
    expect(response.status).toBeLessThan(500);
    expect(await refusedForCsrf(response)).toBe(false);
    expect(await typedRefusal(response)).toBeUndefined();
  });

  it("serves exactly the POSTs the CSRF rules name", () => {
    expect(posts.map(csrfKey).sort()).toEqual(Object.keys(NEEDS_CSRF).sort());
  });
});
