/**
 * Faults of the configuration are said once, when the config is first resolved, with the fix in the
 * message: not per request, not as a bare "Server error", and never as raw JSON to a browser.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sqliteAdapter } from "../../../src/adapters/sql/sqlite.js";
import { checkConfig } from "../../../src/config/runtime.js";
import { InvalidConfiguration } from "../../../src/errors.js";
import { getSession } from "../../../src/server/index.js";
import GitHub from "../../../src/providers/catalog/github.js";
import { BASE_URL, SECRET, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** Every line the logger received at `level`, as text. */
function said(config: TestConfig, level: "error" | "warn" | "debug"): string[] {
  return config.logger.entries.filter((e) => e.level === level).map((e) => `${e.code}: ${e.message.map(String).join(" ")}`);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/** NODE_ENV=production, and each named variable set ("" unsets it for the library). */
function inProduction(vars: Record<string, string> = {}): void {
  vi.stubEnv("NODE_ENV", "production");
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
}

const NO_SECRET = { AUTH_SECRET: "", APPAUTH_SECRET: "" };
const NO_TRUSTED_HOST = { AUTH_TRUST_HOST: "", AUTH_URL: "" };

describe("a production server without a secret", () => {
  it("is refused at the first resolution, saying how to make a secret, and logged once however many requests come", async () => {
    inProduction(NO_SECRET);
    const config = testConfig({ secret: undefined });
    const client = new TestClient(config);
    for (let i = 0; i < 3; i++) expect((await client.get("/session")).status).toBe(500);
    expect(said(config, "error")).toEqual([expect.stringMatching(/^MissingSecret: .*AUTH_SECRET.*openssl rand -base64 33/)]);
  });
});

describe("server-side session reads on a refused config", () => {
  it("are null, and the fault is logged once (each read adds a debug line, not another error)", async () => {
    inProduction(NO_SECRET);
    const config = testConfig({ secret: undefined });
    const request = new Request(`${BASE_URL}/anything`);
    for (let i = 0; i < 3; i++) expect(await getSession(request, config)).toBeNull();
    expect(config.logger.codes("error")).toEqual(["MissingSecret"]);
    expect(config.logger.codes("debug")).toEqual(["SessionReadFailed", "SessionReadFailed", "SessionReadFailed"]);
  });
});

describe("a short secret", () => {
  it("is warned about once, naming the length and how to make a better one", async () => {
    const config = testConfig({ secret: "abc" });
    const client = new TestClient(config);
    await client.get("/session");
    await client.get("/csrf");
    expect(said(config, "warn")).toEqual([expect.stringMatching(/^WeakSecret: .*shorter than 32 characters.*openssl rand/)]);
  });

  it("is not mentioned when the secret is long enough", async () => {
    const config = testConfig({ secret: SECRET });
    await new TestClient(config).get("/session");
    expect(said(config, "warn")).toEqual([]);
  });
});

describe("an untrusted host", () => {
  it("is reported once with both fixes (AUTH_TRUST_HOST or AUTH_URL), and each refused request only at debug", async () => {
    inProduction(NO_TRUSTED_HOST);
    const config = testConfig({ trustHost: undefined });
    const client = new TestClient(config);
    for (let i = 0; i < 3; i++) expect((await client.get("/session")).status).toBe(500);
    expect(said(config, "error")).toEqual([expect.stringMatching(/^UntrustedHost: .*AUTH_TRUST_HOST=true.*AUTH_URL/)]);
    expect(config.logger.codes("debug")).toEqual(["UntrustedHost", "UntrustedHost", "UntrustedHost"]);
  });

  it("answers a browser with the error page, not JSON", async () => {
    inProduction(NO_TRUSTED_HOST);
    const response = await new TestClient(testConfig({ trustHost: undefined })).get("/signin", { headers: BROWSER });
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain('data-error-type="Configuration"');
  });
});

describe("an OAuth provider without a client id", () => {
  it("refuses the configuration in production, naming the variable to set", async () => {
    inProduction({ AUTH_GITHUB_ID: "" });
    const config = testConfig({ providers: [GitHub] });
    const response = await new TestClient(config).get("/signin", { headers: BROWSER });
    expect(response.status).toBe(500);
    expect(said(config, "error")).toEqual([expect.stringMatching(/^Configuration: .*\(github\): no client id.*AUTH_GITHUB_ID.*AUTH_GITHUB_SECRET/)]);
  });

  it("is shown disabled in development, with what to set, instead of a button that ends on an error page", async () => {
    vi.stubEnv("AUTH_GITHUB_ID", "");
    const config = testConfig({ providers: [GitHub] });
    const client = new TestClient(config);
    const html = await (await client.get("/signin")).text();
    await client.get("/signin");
    expect(html).not.toContain(`action="${BASE_URL}/signin/github"`);
    expect(html).toMatch(/<button class="btn" type="button" disabled aria-describedby="github-unavailable">/);
    expect(html).toContain('<p class="hint" id="github-unavailable">Not configured: set AUTH_GITHUB_ID (and AUTH_GITHUB_SECRET)');
    expect(said(config, "warn")).toEqual([
      expect.stringMatching(/^MissingClientId:github: GitHub \(github\) has no client id.*AUTH_GITHUB_ID.*troubleshooting\.md#missingclientid$/),
    ]);
  });

  it("is a working button once AUTH_GITHUB_ID is set", async () => {
    vi.stubEnv("AUTH_GITHUB_ID", "client-id");
    vi.stubEnv("AUTH_GITHUB_SECRET", "client-secret");
    const html = await (await new TestClient(testConfig({ providers: [GitHub] })).get("/signin")).text();
    expect(html).toContain(`action="${BASE_URL}/signin/github"`);
    expect(html).not.toContain("disabled");
  });
});

describe("a request outside the configured basePath", () => {
  it("says which basePath is configured and which path came in, once", async () => {
    const config = testConfig();
    const client = new TestClient(config, "http://localhost:3000/api/auth");
    const first = await client.get("/session");
    await client.get("/csrf");
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: "UnknownAction", message: expect.stringContaining('basePath "/auth"') });
    expect(said(config, "warn")).toEqual([
      expect.stringMatching(/^BasePathMismatch: Cannot handle GET \/api\/auth\/session: appauth is configured with basePath "\/auth"/),
    ]);
  });

  it("shows a browser an error page that names both paths (outside production), not raw JSON", async () => {
    const response = await new TestClient(testConfig(), "http://localhost:3000/api/auth").get("/signin", { headers: BROWSER });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("/api/auth/signin");
    expect(html).toContain("basePath &quot;/auth&quot;");
  });

  it("keeps the reason off the page in production", async () => {
    inProduction();
    const response = await new TestClient(testConfig(), "http://localhost:3000/api/auth").get("/signin", { headers: BROWSER });
    expect(await response.text()).not.toContain("basePath");
  });
});

describe("a browser asking for a provider that does not exist", () => {
  it("gets the error page with 404", async () => {
    const response = await new TestClient(testConfig()).get("/signin/nobody", { headers: BROWSER });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("a credentials sign-in with database sessions whose user is not in the store", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("answers the Configuration page (a fault of the server, 500), with a log line naming the fix, and no session or foreign-key error", async () => {
    dir = await mkdtemp(join(tmpdir(), "appauth-faults-"));
    const adapter = sqliteAdapter(join(dir, "store.sqlite"));
    await adapter.migrate();
    const config = testConfig({ adapter, session: { strategy: "database" } });
    const client = new TestClient(config);
    const response = await client.signIn("ada", "correct horse battery staple");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await response.text()).not.toMatch(/FOREIGN KEY|\bat \S+:\d+/i);
    const fetched = await client.signIn("ada", "correct horse battery staple", { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(await fetched.json()).toEqual({ url: `${BASE_URL}/error?error=Configuration` });
    expect(await client.session()).toBeNull();
    const errors = said(config, "error");
    const namesTheFix = expect.stringMatching(/^Configuration: .*authorize\(\) returned a user \(id "user-ada"\).*adapter\.createUser.*strategy: "jwt"/);
    expect(errors).toEqual([namesTheFix, namesTheFix]);
    expect(errors.join("\n")).not.toMatch(/FOREIGN KEY/i);
  });

  it("signs in once the user is in the store", async () => {
    dir = await mkdtemp(join(tmpdir(), "appauth-faults-"));
    const adapter = sqliteAdapter(join(dir, "store.sqlite"));
    await adapter.migrate();
    await adapter.createUser!({ id: "user-ada", email: "ada@example.com", name: "Ada Lovelace", image: null, emailVerified: null });
    const client = new TestClient(testConfig({ adapter, session: { strategy: "database" } }));
    await client.signIn("ada", "correct horse battery staple");
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });
});

describe("checkConfig, for integrations that can check before the first request", () => {
  it("refuses what is wrong whatever the environment holds", () => {
    expect(() => checkConfig(testConfig({ providers: [GitHub, GitHub] }))).toThrow(InvalidConfiguration);
  });

  it("accepts a production config whose secret only comes at run time (a build must still build)", () => {
    inProduction(NO_SECRET);
    expect(() => checkConfig(testConfig({ secret: undefined }))).not.toThrow();
  });
});
