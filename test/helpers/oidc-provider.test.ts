/**
 * The test OP (oidc-provider on loopback) does what the OAuth/OIDC tests rely on: discovery with
 * RFC 9207 `iss` and form_post, code flow with PKCE driven without a browser, refusals, refresh
 * tokens for offline_access, single-use codes. Then the demo's OP, signed into with Chromium.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoProvider, type DemoProvider } from "../../demo/op/index.js";
import {
  CONFIDENTIAL_CLIENT,
  PUBLIC_CLIENT,
  startTestProvider,
  TEST_ACCOUNTS,
  type AuthorizationOutcome,
  type TestClient,
  type TestProvider,
} from "./oidc-provider.js";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  [key: string]: unknown;
}

interface Pkce {
  verifier: string;
  challenge: string;
}

function pkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizationUrl(
  endpoint: string,
  client: TestClient,
  params: { scope?: string; state?: string; nonce?: string; challenge?: string; [param: string]: string | undefined },
): string {
  const { challenge, ...rest } = params;
  const url = new URL(endpoint);
  const all: Record<string, string | undefined> = {
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    response_type: "code",
    scope: "openid email profile",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
    ...rest,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The token request of RFC 6749 §4.1.3, client authentication as the client registered it. */
function exchangeCode(tokenEndpoint: string, client: TestClient, code: string, verifier?: string): Promise<Response> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0] ?? "" });
  if (verifier) body.set("code_verifier", verifier);
  return tokenRequest(tokenEndpoint, client, body);
}

function tokenRequest(tokenEndpoint: string, client: TestClient, body: URLSearchParams): Promise<Response> {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  if (client.token_endpoint_auth_method === "client_secret_basic") {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret ?? "")}`;
    headers.set("authorization", `Basic ${Buffer.from(credentials).toString("base64")}`);
  } else {
    body.set("client_id", client.client_id);
  }
  return fetch(tokenEndpoint, { method: "POST", headers, body });
}

function redirectParams(outcome: AuthorizationOutcome): URLSearchParams {
  expect(outcome.method).toBe("GET");
  return new URL(outcome.url).searchParams;
}

describe("the test OpenID Provider", () => {
  let op: TestProvider;
  let discovery: Discovery;

  beforeAll(async () => {
    op = await startTestProvider();
    const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
    discovery = (await response.json()) as Discovery;
  });
  afterAll(() => op.close());

  it("serves discovery on loopback http, announcing iss in authorization responses and form_post", () => {
    expect(op.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(discovery.issuer).toBe(op.issuer);
    expect(discovery).toMatchObject({
      authorization_response_iss_parameter_supported: true,
      code_challenge_methods_supported: ["S256"],
      backchannel_logout_supported: true,
      claims_parameter_supported: true,
    });
    expect(discovery.response_modes_supported).toEqual(expect.arrayContaining(["query", "form_post"]));
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    for (const endpoint of ["userinfo_endpoint", "revocation_endpoint", "introspection_endpoint", "end_session_endpoint"]) {
      expect(discovery[endpoint]).toMatch(new RegExp(`^${op.issuer}/`));
    }
  });

  it("runs the code flow with PKCE: redirect with code, state and iss, then an ID token signed by its RS256 key", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "s-1", nonce: "n-1", challenge });
    const params = redirectParams(await op.authorize(url, { accountId: "ada" }));
    expect(params.get("state")).toBe("s-1");
    expect(params.get("iss")).toBe(op.issuer);
    const code = params.get("code");
    expect(code).toEqual(expect.any(String));

    const before = op.grants.authorization_code ?? 0;
    const response = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "", verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: "Bearer", access_token: expect.any(String), id_token: expect.any(String) });
    expect(tokens.refresh_token).toBeUndefined();
    expect(op.grants.authorization_code).toBe(before + 1);

    const { payload, protectedHeader } = await jwtVerify(String(tokens.id_token), createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: op.issuer,
      audience: CONFIDENTIAL_CLIENT.client_id,
    });
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: op.signingKeys[0]?.kid });
    expect(payload).toMatchObject({ sub: "ada", nonce: "n-1", email: "ada@example.com", email_verified: true, name: "Ada Lovelace" });
  });

  it("lets a confidential client leave PKCE out", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "s-2" });
    const code = redirectParams(await op.authorize(url)).get("code");
    const response = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "");
    expect(response.status).toBe(200);
  });

  it("runs a public client's flow with PKCE, and refuses one without it", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, PUBLIC_CLIENT, { state: "p-1", challenge });
    const code = redirectParams(await op.authorize(url, { accountId: "grace" })).get("code");
    const response = await exchangeCode(discovery.token_endpoint, PUBLIC_CLIENT, code ?? "", verifier);
    expect(response.status).toBe(200);
    const { id_token } = (await response.json()) as { id_token: string };
    const claims = JSON.parse(Buffer.from(id_token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: "grace", email_verified: false });

    const withoutPkce = authorizationUrl(discovery.authorization_endpoint, PUBLIC_CLIENT, { state: "p-2" });
    const refused = redirectParams(await op.authorize(withoutPkce));
    expect(refused.get("error")).toBe("invalid_request");
    expect(refused.get("code")).toBeNull();
  });

  it("sends access_denied back to the client when the user denies", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "d-1", challenge: pkce().challenge });
    const outcome = await op.authorize(url, { deny: true });
    expect(outcome.url.startsWith(`${CONFIDENTIAL_CLIENT.redirect_uris[0]}?`)).toBe(true);
    const params = redirectParams(outcome);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("d-1");
    expect(params.get("iss")).toBe(op.issuer);
    expect(params.get("code")).toBeNull();
  });

  it("answers response_mode=form_post with the form the browser would post to the redirect_uri", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, {
      state: "f-1",
      challenge: pkce().challenge,
      response_mode: "form_post",
    });
    const outcome = await op.authorize(url);
    expect(outcome).toMatchObject({ method: "POST", url: CONFIDENTIAL_CLIENT.redirect_uris[0] });
    if (outcome.method !== "POST") throw new Error("unreachable");
    expect(outcome.form).toEqual({ code: expect.any(String), state: "f-1", iss: op.issuer });
  });

  it("issues a refresh token for offline_access with prompt=consent, and refreshes with it", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, {
      scope: "openid email offline_access",
      prompt: "consent",
      state: "r-1",
      challenge,
    });
    const code = redirectParams(await op.authorize(url)).get("code");
    const tokens = (await (await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code ?? "", verifier)).json()) as Record<string, string>;
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(" ")).toContain("offline_access");

    const before = op.grants.refresh_token ?? 0;
    const refreshed = await tokenRequest(
      discovery.token_endpoint,
      CONFIDENTIAL_CLIENT,
      new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "" }),
    );
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) });
    expect(op.grants.refresh_token).toBe(before + 1);
  });

  it("refuses a second use of the same code with invalid_grant", async () => {
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(discovery.authorization_endpoint, CONFIDENTIAL_CLIENT, { state: "c-1", challenge });
    const code = redirectParams(await op.authorize(url)).get("code") ?? "";
    expect((await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code, verifier)).status).toBe(200);
    const replay = await exchangeCode(discovery.token_endpoint, CONFIDENTIAL_CLIENT, code, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps profile claims out of the ID token with claimsInIdToken: false, and serves them from UserInfo", async () => {
    const strict = await startTestProvider({ features: { claimsInIdToken: false } });
    try {
      const { verifier, challenge } = pkce();
      const url = authorizationUrl(`${strict.issuer}/auth`, CONFIDENTIAL_CLIENT, { state: "u-1", challenge });
      const code = redirectParams(await strict.authorize(url)).get("code") ?? "";
      const tokens = (await (await exchangeCode(`${strict.issuer}/token`, CONFIDENTIAL_CLIENT, code, verifier)).json()) as Record<string, string>;
      const claims = JSON.parse(Buffer.from(tokens.id_token?.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
      expect(claims.sub).toBe("ada");
      expect(claims.email).toBeUndefined();
      const userinfo = await fetch(`${strict.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(await userinfo.json()).toEqual({ sub: "ada", ...TEST_ACCOUNTS.ada });
    } finally {
      await strict.close();
    }
  });

  it("rejects, rather than redirects, a request it cannot send back to the client", async () => {
    const url = authorizationUrl(discovery.authorization_endpoint, { ...CONFIDENTIAL_CLIENT, redirect_uris: ["http://evil.example/cb"] }, {});
    await expect(op.authorize(url)).rejects.toThrow(/redirect_uri/);
  });
});

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = fileURLToPath(new URL("../.artifacts/", import.meta.url));
const hasChromium = existsSync(CHROMIUM);
const MISSING = `Chromium is not installed at ${CHROMIUM}: the demo OP's browser test needs it (apt-get install chromium).`;

if (!hasChromium && process.env.CI !== "true") console.warn(`\n⚠️  SKIPPING the demo OP's Chromium test. ${MISSING}\n`);
if (!hasChromium && process.env.CI === "true") {
  describe("the demo OP's browser environment", () => {
    it("has Chromium installed, because CI=true does not allow skipping the browser tests", () => {
      expect.fail(MISSING);
    });
  });
}

describe.runIf(hasChromium)("the demo OpenID Provider in Chromium", () => {
  let op: DemoProvider;
  let browser: Browser;
  let dataDir: string;
  /** A stand-in for the demo app: it records the callback requests it gets. */
  let app: Server;
  let redirectUri: string;
  const callbacks: URL[] = [];

  beforeAll(async () => {
    app = createServer((req, res) => {
      callbacks.push(new URL(req.url ?? "/", redirectUri));
      res.writeHead(200, { "content-type": "text/plain" }).end("back at the app");
    });
    await new Promise<void>((resolve) => app.listen(0, "localhost", resolve));
    redirectUri = `http://localhost:${(app.address() as AddressInfo).port}/api/auth/callback/demo-id`;
    dataDir = await mkdtemp(join(tmpdir(), "appauth-demo-op-"));
    op = await startDemoProvider({ port: 0, redirectUris: [redirectUri], dataDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await op?.close();
    app?.closeAllConnections();
    await new Promise((resolve) => app?.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("signs a demo person in through its login and consent pages and redirects with a code", async () => {
    const { verifier, challenge } = pkce();
    const client: TestClient = { client_id: op.clientId, token_endpoint_auth_method: "client_secret_basic", redirect_uris: [redirectUri] };
    const url = authorizationUrl(`${op.issuer}/auth`, client, { state: "demo-1", nonce: "demo-n", challenge });

    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.getByText("appauth demo identity provider").count()).toBe(1);
    expect(await page.getByText("no real account needed").count()).toBe(1);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "op-login.png"), fullPage: true });

    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("heading", { name: /wants to/ }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "op-consent.png"), fullPage: true });
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${redirectUri}?**`);
    expect(await page.textContent("body")).toContain("back at the app");

    const landedAt = callbacks.find((callback) => callback.pathname === new URL(redirectUri).pathname);
    expect(landedAt?.searchParams.get("state")).toBe("demo-1");
    expect(landedAt?.searchParams.get("iss")).toBe(op.issuer);
    const code = landedAt?.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const response = await exchangeCode(`${op.issuer}/token`, { ...client, client_secret: op.clientSecret }, code, verifier);
    expect(response.status).toBe(200);
    const { id_token } = (await response.json()) as { id_token: string };
    const claims = JSON.parse(Buffer.from(id_token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: "demo-ada", email: "ada@example.test", email_verified: true, name: "Ada Lovelace", nonce: "demo-n" });
    await page.close();
  });

  it("keeps its keys and client secret in the data folder, so a restart changes neither", async () => {
    const stored = JSON.parse(await readFile(join(dataDir, "op-keys.json"), "utf8")) as { clientSecrets: Record<string, string> };
    expect(stored.clientSecrets[op.clientId]).toBe(op.clientSecret);
    const jwks: unknown = await (await fetch(`${op.issuer}/jwks`)).json();
    const again = await startDemoProvider({ port: 0, redirectUris: [redirectUri], dataDir });
    try {
      expect(again.clientSecret).toBe(op.clientSecret);
      expect(await (await fetch(`${again.issuer}/jwks`)).json()).toEqual(jwks);
    } finally {
      await again.close();
    }
  });
});
