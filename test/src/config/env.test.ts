import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Auth, MissingSecretError, setEnvDefaults } from "../../../src/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { decode } from "../../../src/jwt/index.js";
import type { AuthConfig, OtherProviderConfig } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, passwordProvider, recordingLogger, SESSION_COOKIE } from "../../helpers/config.js";
import { setCookieNamed } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";

/** Every variable these tests read, blanked so the machine's own environment cannot leak in. */
const VARIABLES = [
  "APPAUTH_SECRET",
  "AUTH_SECRET",
  "APPAUTH_SECRET_1",
  "APPAUTH_SECRET_2",
  "APPAUTH_SECRET_3",
  "AUTH_SECRET_1",
  "AUTH_SECRET_2",
  "AUTH_SECRET_3",
  "APPAUTH_URL",
  "AUTH_URL",
  "APPAUTH_TRUST_HOST",
  "AUTH_TRUST_HOST",
  "APPAUTH_REDIRECT_PROXY_URL",
  "AUTH_REDIRECT_PROXY_URL",
  "VERCEL",
  "CF_PAGES",
];

beforeEach(() => {
  for (const name of VARIABLES) vi.stubEnv(name, "");
  vi.stubEnv("NODE_ENV", "test");
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A config with no secret and no trustHost: what the environment says decides. */
function bareConfig(overrides: Partial<AuthConfig> = {}): AuthConfig & { logger: ReturnType<typeof recordingLogger> } {
  return { providers: [passwordProvider()], logger: recordingLogger(), ...overrides } as AuthConfig & {
    logger: ReturnType<typeof recordingLogger>;
  };
}

function oauthProvider(id: string, extra: Partial<OtherProviderConfig> = {}): OtherProviderConfig {
  return { id, name: id, type: "oauth", ...extra };
}

async function signedInCookie(client: TestClient, name = SESSION_COOKIE): Promise<string> {
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  const value = client.cookie(name);
  expect(value).toBeDefined();
  return value!;
}

describe("the secret from the environment", () => {
  it("is read from APPAUTH_SECRET", async () => {
    vi.stubEnv("APPAUTH_SECRET", "from-appauth-secret");
    const token = await signedInCookie(new TestClient(bareConfig()));
    expect(await decode({ token, secret: "from-appauth-secret", salt: SESSION_COOKIE })).toMatchObject({ email: ADA.email });
  });

  it("is read from AUTH_SECRET, its alias", async () => {
    vi.stubEnv("AUTH_SECRET", "from-auth-secret");
    const token = await signedInCookie(new TestClient(bareConfig()));
    expect(await decode({ token, secret: "from-auth-secret", salt: SESSION_COOKIE })).not.toBeNull();
  });

  it("prefers APPAUTH_SECRET over AUTH_SECRET, and the config's secret over both", () => {
    expect(getRuntime(bareConfig(), { APPAUTH_SECRET: "a", AUTH_SECRET: "b" }).secrets).toEqual(["a"]);
    expect(getRuntime(bareConfig({ secret: "c" }), { APPAUTH_SECRET: "a", AUTH_SECRET: "b" }).secrets).toEqual(["c"]);
  });

  it("forms a rotation list from AUTH_SECRET_3..1 then AUTH_SECRET, in the order Auth.js takes them", () => {
    const env = { AUTH_SECRET: "s", AUTH_SECRET_1: "s1", AUTH_SECRET_2: "s2", AUTH_SECRET_3: "s3" };
    expect(getRuntime(bareConfig(), env).secrets).toEqual(["s3", "s2", "s1", "s"]);
    expect(getRuntime(bareConfig(), { AUTH_SECRET: "s", AUTH_SECRET_2: "s2" }).secrets).toEqual(["s2", "s"]);
  });

  it("encrypts with the secret Auth.js would encrypt with, for the same environment", async () => {
    const { setEnvDefaults } = await import("@auth/core");
    const env = { AUTH_SECRET: "s", AUTH_SECRET_1: "s1", AUTH_SECRET_3: "s3" };
    const theirs = { providers: [] } as { providers: []; secret?: string | string[] };
    setEnvDefaults(env, theirs);
    expect(getRuntime(bareConfig(), env).secrets).toEqual(theirs.secret);
  });

  it("keeps sessions issued under AUTH_SECRET readable once AUTH_SECRET_1 is added, and re-issues them under it", async () => {
    vi.stubEnv("AUTH_SECRET", "old");
    const old = await signedInCookie(new TestClient(bareConfig()));
    vi.stubEnv("AUTH_SECRET_1", "new");
    const client = new TestClient(bareConfig());
    client.setCookie(SESSION_COOKIE, old);
    const response = await client.get("/session");
    expect(await response.json()).toMatchObject({ user: { email: ADA.email } });
    const reissued = setCookieNamed(response, SESSION_COOKIE)!.value;
    expect(await decode({ token: reissued, secret: "new", salt: SESSION_COOKIE })).not.toBeNull();
  });

  it("is required in production: creating the runtime throws MissingSecretError", () => {
    expect(() => getRuntime(bareConfig(), { NODE_ENV: "production", AUTH_TRUST_HOST: "true" })).toThrow(MissingSecretError);
    expect(() => getRuntime(bareConfig(), { NODE_ENV: "production" })).toThrow(/secret/i);
  });

  it("is required in production: Auth answers 500 Configuration, without a stack", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    const config = bareConfig();
    const response = await new TestClient(config).get("/session");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "Configuration", message: expect.any(String) });
    expect(text).not.toMatch(/MissingSecret|\bat \S+:\d+/);
    expect(config.logger.codes("error")).toEqual(["MissingSecret"]);
  });

  it("is generated, with a warning, in development, so sessions work until a restart", async () => {
    const config = bareConfig();
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await client.session()).toMatchObject({ user: { email: ADA.email } });
    expect(config.logger.codes("warn")).toContain("MissingSecret");
  });
});

describe("AUTH_URL", () => {
  it("sets the origin every URL is built on and the base path from its path", async () => {
    vi.stubEnv("AUTH_SECRET", "s");
    vi.stubEnv("AUTH_URL", "https://app.example/custom/auth");
    const config = bareConfig();
    // The request arrives on an internal address, as behind a proxy.
    const client = new TestClient(config, "http://10.0.0.7:8080/custom/auth");
    const providers = (await (await client.get("/providers")).json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
    expect(providers.credentials).toMatchObject({
      signinUrl: "https://app.example/custom/auth/signin/credentials",
      callbackUrl: "https://app.example/custom/auth/callback/credentials",
    });
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/home" });
    expect(response.headers.get("location")).toBe("https://app.example/home");
    // An https origin means secure cookies.
    expect(setCookieNamed(response, `__Secure-${SESSION_COOKIE}`)?.secure).toBe(true);
    expect((await client.get("http://10.0.0.7:8080/auth/providers")).status).toBe(400);
  });

  it("is also read as APPAUTH_URL", async () => {
    const rt = getRuntime(bareConfig({ secret: "s" }), { APPAUTH_URL: "https://app.example/api/auth" });
    expect(rt.basePath).toBe("/api/auth");
    expect(rt.envUrl?.origin).toBe("https://app.example");
  });

  it("without a path leaves the base path at its default", () => {
    expect(getRuntime(bareConfig({ secret: "s" }), { AUTH_URL: "https://app.example" }).basePath).toBe("/auth");
    expect(getRuntime(bareConfig({ secret: "s" }), { AUTH_URL: "https://app.example/" }).basePath).toBe("/auth");
  });

  it("does not override a basePath set in the config", () => {
    const rt = getRuntime(bareConfig({ secret: "s", basePath: "/login" }), { AUTH_URL: "https://app.example/api/auth" });
    expect(rt.basePath).toBe("/login");
  });

  it("that is not a URL is a configuration fault: 500 Configuration", async () => {
    vi.stubEnv("AUTH_SECRET", "s");
    vi.stubEnv("AUTH_URL", "not a url");
    const config = bareConfig();
    const response = await new TestClient(config).get("/session");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
    expect(config.logger.entries.filter((e) => e.level === "error").map((e) => String(e.message[0]))).toEqual([
      expect.stringContaining("AUTH_URL"),
    ]);
  });
});

describe("trusting the host", () => {
  it("is refused in production without AUTH_TRUST_HOST or AUTH_URL: 500 Configuration (UntrustedHost logged)", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const config = bareConfig({ secret: "s" });
    const response = await new TestClient(config).get("/session");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
    expect(config.logger.codes("error")).toEqual(["UntrustedHost"]);
  });

  it("is granted in production by AUTH_TRUST_HOST=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    const response = await new TestClient(bareConfig({ secret: "s" })).get("/session");
    expect(response.status).toBe(200);
  });

  it("is granted in production when AUTH_URL names the origin", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_URL", "https://app.example/auth");
    const response = await new TestClient(bareConfig({ secret: "s" })).get("/session");
    expect(response.status).toBe(200);
  });

  it("is refused whenever the config says trustHost: false and no AUTH_URL is set", async () => {
    const response = await new TestClient(bareConfig({ secret: "s", trustHost: false })).get("/providers");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
  });

  it("is refused with AUTH_TRUST_HOST=false even outside production", async () => {
    vi.stubEnv("AUTH_TRUST_HOST", "false");
    expect((await new TestClient(bareConfig({ secret: "s" })).get("/session")).status).toBe(500);
  });

  it("lets a trusted proxy name the origin with X-Forwarded-Host and X-Forwarded-Proto", async () => {
    const client = new TestClient(bareConfig({ secret: "s", trustHost: true }), "http://10.0.0.7:8080/auth");
    const response = await client.get("/providers", { headers: { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" } });
    const providers = (await response.json()) as Record<string, { signinUrl: string }>;
    expect(providers.credentials?.signinUrl).toBe("https://app.example/auth/signin/credentials");
  });

  it("ignores a forwarded host that is more than a host", async () => {
    const client = new TestClient(bareConfig({ secret: "s", trustHost: true }));
    for (const host of ["evil.example/path", "evil.example@good.example", "a b", "evil.example?x"]) {
      const response = await client.get("/providers", { headers: { "x-forwarded-host": host } });
      const providers = (await response.json()) as Record<string, { signinUrl: string }>;
      expect(new URL(providers.credentials!.signinUrl).origin, host).toBe("http://localhost:3000");
    }
  });
});

describe("AUTH_REDIRECT_PROXY_URL", () => {
  it("sets redirectProxyUrl when the config has none", () => {
    const env = { AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth" };
    expect(getRuntime(bareConfig({ secret: "s" }), env).config.redirectProxyUrl).toBe("https://proxy.example/api/auth");
    const own = bareConfig({ secret: "s", redirectProxyUrl: "https://mine.example/auth" });
    expect(getRuntime(own, env).config.redirectProxyUrl).toBe("https://mine.example/auth");
  });
});

describe("setEnvDefaults(env, config)", () => {
  it("writes the environment's defaults into the config object", () => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults(
      {
        AUTH_SECRET: "env-secret",
        AUTH_SECRET_1: "newer",
        AUTH_URL: "https://app.example/api/auth",
        AUTH_TRUST_HOST: "true",
        AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth",
      },
      config,
    );
    expect(config).toEqual({
      providers: [],
      secret: ["newer", "env-secret"],
      trustHost: true,
      basePath: "/api/auth",
      redirectProxyUrl: "https://proxy.example/api/auth",
    });
  });

  it("never overrides what the config sets", () => {
    const config: AuthConfig = {
      providers: [oauthProvider("github", { clientId: "mine", clientSecret: "mine-too" })],
      secret: "config-secret",
      trustHost: false,
      basePath: "/auth",
      redirectProxyUrl: "https://mine.example/auth",
    };
    const before = structuredClone(config);
    setEnvDefaults(
      {
        AUTH_SECRET: "env",
        AUTH_TRUST_HOST: "true",
        AUTH_URL: "https://app.example/api/auth",
        AUTH_REDIRECT_PROXY_URL: "https://proxy.example",
        AUTH_GITHUB_ID: "env-id",
        AUTH_GITHUB_SECRET: "env-secret",
      },
      config,
    );
    expect(config).toEqual(before);
  });

  it("fills AUTH_<PROVIDER>_ID, _SECRET and _ISSUER into an oauth provider, by its id in upper snake case", () => {
    const config: AuthConfig = {
      providers: [oauthProvider("github"), oauthProvider("microsoft-entra-id"), passwordProvider()],
    };
    setEnvDefaults(
      {
        AUTH_GITHUB_ID: "gh-id",
        AUTH_GITHUB_SECRET: "gh-secret",
        AUTH_MICROSOFT_ENTRA_ID_ID: "ms-id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "ms-secret",
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.example/tenant/v2.0",
        AUTH_CREDENTIALS_ID: "ignored",
      },
      config,
    );
    expect(config.providers[0]).toMatchObject({ id: "github", clientId: "gh-id", clientSecret: "gh-secret" });
    expect(config.providers[0]).not.toHaveProperty("issuer");
    expect(config.providers[1]).toMatchObject({
      clientId: "ms-id",
      clientSecret: "ms-secret",
      issuer: "https://login.example/tenant/v2.0",
    });
    expect(config.providers[2]).not.toHaveProperty("clientId");
  });

  it("reads the APPAUTH_ spelling of the provider variables too", () => {
    const config: AuthConfig = { providers: [oauthProvider("google")] };
    setEnvDefaults({ APPAUTH_GOOGLE_ID: "g-id", APPAUTH_GOOGLE_SECRET: "g-secret" }, config);
    expect(config.providers[0]).toMatchObject({ clientId: "g-id", clientSecret: "g-secret" });
  });

  it("resolves a provider listed bare as a factory, and fills its credentials", () => {
    const GitHub = (overrides: Partial<OtherProviderConfig> = {}): OtherProviderConfig => oauthProvider("github", overrides);
    const config: AuthConfig = { providers: [GitHub] };
    setEnvDefaults({ AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" }, config);
    expect(config.providers[0]).toMatchObject({ id: "github", type: "oauth", clientId: "gh-id", clientSecret: "gh-secret" });
  });

  it("leaves a config alone for an empty environment (apart from trustHost, which it decides)", () => {
    const config: AuthConfig = { providers: [oauthProvider("github")] };
    setEnvDefaults({ NODE_ENV: "production" }, config);
    expect(config).toEqual({ providers: [oauthProvider("github")], trustHost: false });
  });
});

describe("several configurations in one process", () => {
  it("never affect each other", async () => {
    const a = bareConfig({ secret: "secret-a", trustHost: true, basePath: "/a" });
    const b = bareConfig({ secret: "secret-b", trustHost: true, basePath: "/b", session: { maxAge: 60 } });
    const clientA = new TestClient(a, "http://localhost:3000/a");
    const clientB = new TestClient(b, "http://localhost:3000/b");
    await clientA.signIn(ADA_USERNAME, ADA_PASSWORD);
    await clientB.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(getRuntime(a).session.maxAge).toBe(2_592_000);
    expect(getRuntime(b).session.maxAge).toBe(60);
    // A's session does not open under B.
    clientB.setCookie(SESSION_COOKIE, clientA.cookie(SESSION_COOKIE)!);
    expect(await clientB.session()).toBeNull();
    expect(await clientA.session()).not.toBeNull();
  });
});

describe("Auth", () => {
  it("reads process.env when the runtime is first built, and keeps that runtime for its config object", async () => {
    vi.stubEnv("AUTH_SECRET", "first");
    const config = bareConfig();
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    vi.stubEnv("AUTH_SECRET", "second");
    expect(await client.session()).not.toBeNull();
    const request = new Request("http://localhost:3000/auth/session");
    expect((await Auth(request, config)).status).toBe(200);
  });
});
