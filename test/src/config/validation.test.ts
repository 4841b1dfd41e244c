import { describe, expect, it } from "vitest";
import { AuthError, InvalidConfiguration, MissingAuthorize } from "../../../src/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { validateConfigShape } from "../../../src/config/schema.js";
import type { AuthConfig } from "../../../src/types.js";
import { BASE_URL, passwordProvider, recordingLogger, SECRET, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

/** The message a config fails validation with, or a failure of the test when it passes. */
function problemWith(config: unknown): string {
  try {
    getRuntime(config as AuthConfig, {});
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).type).toBe("Configuration");
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

const base = { providers: [passwordProvider()], secret: SECRET, trustHost: true };

describe("validating the configuration", () => {
  it.each([
    [{ ...base, session: { maxAge: -1 } }, "session.maxAge"],
    [{ ...base, session: { maxAge: 1.5 } }, "session.maxAge"],
    [{ ...base, session: { maxAge: "30d" } }, "session.maxAge"],
    [{ ...base, session: { updateAge: -5 } }, "session.updateAge"],
    [{ ...base, session: { strategy: "cookie" } }, "session.strategy"],
    [{ ...base, jwt: { maxAge: 0 } }, "jwt.maxAge"],
    [{ ...base, jwt: { encode: "base64" } }, "jwt.encode"],
    [{ ...base, providers: [{ id: "has space", name: "x", type: "credentials", authorize: () => null }] }, "providers[0].id"],
    [{ ...base, providers: [{ id: 7, name: "x", type: "credentials", authorize: () => null }] }, "providers[0].id"],
    [{ ...base, providers: [passwordProvider(), { id: "x", name: "x", type: "oauth2" }] }, "providers[1].type"],
    [{ ...base, providers: [{ id: "x", type: "credentials" }] }, "providers[0].name"],
    [{ ...base, providers: [42] }, "providers[0]"],
    [{ ...base, providers: "credentials" }, "providers"],
    [{ secret: SECRET }, "providers"],
    [{ ...base, basePath: "/auth/" }, "basePath"],
    [{ ...base, basePath: "auth" }, "basePath"],
    [{ ...base, secret: "" }, "secret"],
    [{ ...base, secret: [] }, "secret"],
    [{ ...base, secret: [SECRET, ""] }, "secret[1]"],
    [{ ...base, secret: 12345 }, "secret"],
    [{ ...base, callbacks: { jwt: "yes" } }, "callbacks.jwt"],
    [{ ...base, events: { signIn: true } }, "events.signIn"],
    [{ ...base, pages: { signIn: "javascript:alert(1)" } }, "pages.signIn"],
    [{ ...base, cookies: { sessionToken: { name: "bad name;" } } }, "cookies.sessionToken.name"],
    [{ ...base, cookies: { sessionTokn: { name: "x" } } }, "cookies"],
    [{ ...base, useSecureCookies: "yes" }, "useSecureCookies"],
    [{ ...base, trustHost: "true" }, "trustHost"],
    [{ ...base, redirectProxyUrl: "proxy" }, "redirectProxyUrl"],
    [{ ...base, theme: { colorScheme: "blue" } }, "theme.colorScheme"],
    [{ ...base, logger: { error: "console" } }, "logger.error"],
  ])("refuses %j naming %s", (config, option) => {
    const message = problemWith(config);
    expect(message).toMatch(new RegExp(`^  ${option.replace(/[[\].]/g, "\\$&")}: `, "m"));
    expect(message).not.toMatch(/Invalid input$/m);
  });

  it("names every bad option at once", () => {
    const message = problemWith({ ...base, session: { maxAge: -1, updateAge: -1 }, basePath: "x" });
    expect(message).toContain("session.maxAge");
    expect(message).toContain("session.updateAge");
    expect(message).toContain("basePath");
  });

  it("accepts a complete, valid configuration", () => {
    const config: AuthConfig = {
      ...base,
      basePath: "/api/auth",
      session: { strategy: "jwt", maxAge: 3600, updateAge: 0, generateSessionToken: () => "t" },
      jwt: { maxAge: 3600 },
      callbacks: { signIn: () => true, redirect: ({ baseUrl }) => baseUrl, jwt: ({ token }) => token, session: ({ session }) => session },
      events: { signIn: () => {}, signOut: () => {}, session: () => {} },
      pages: { signIn: "/login", error: "https://app.example/error" },
      cookies: { sessionToken: { name: "s", options: { sameSite: "strict" } } },
      useSecureCookies: false,
      redirectProxyUrl: "https://proxy.example/api/auth",
      debug: true,
      logger: recordingLogger(),
      theme: { colorScheme: "dark", brandColor: "#123456" },
    };
    expect(() => getRuntime(config, {})).not.toThrow();
  });

  it("accepts a cookies option that overrides just one cookie", async () => {
    const config = testConfig({ cookies: { sessionToken: { options: { sameSite: "strict" } } } });
    const client = new TestClient(config);
    const response = await client.signIn("ada", "correct horse battery staple");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("appauth.session-token="))).toContain("SameSite=Strict");
  });

  it("refuses two providers with the same id", () => {
    expect(problemWith({ ...base, providers: [passwordProvider(), passwordProvider()] })).toMatch(/providers\[1\].*used twice/);
  });

  it("refuses a credentials provider without authorize with MissingAuthorize", () => {
    const provider = { id: "pw", name: "Password", type: "credentials", credentials: {} };
    expect(() => getRuntime({ ...base, providers: [provider] } as unknown as AuthConfig, {})).toThrow(MissingAuthorize);
  });

  it("refuses a look-alike of the skipCSRFCheck symbol", () => {
    expect(problemWith({ ...base, skipCSRFCheck: Symbol("skip") })).toContain("skipCSRFCheck");
  });
});

describe("a configuration fault seen through Auth", () => {
  it("answers 500 Configuration as JSON, logs the message naming the option, and shows no stack or detail", async () => {
    const config = testConfig({ session: { maxAge: -1 } });
    const response = await new TestClient(config).get("/session");
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "Configuration", message: expect.any(String) });
    expect(text).not.toContain("session.maxAge");
    expect(text).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+|Error:/);
    expect(config.logger.codes("error")).toEqual(["Configuration"]);
    expect(String(config.logger.entries[0]!.message[0])).toContain("session.maxAge");
  });

  it("answers an HTML page to a browser, again without a stack", async () => {
    const config = testConfig({ providers: [{ id: "bad id", name: "x", type: "credentials", authorize: () => null }] as never });
    const response = await new TestClient(config).get("/signin", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain('data-error-type="Configuration"');
    expect(html).not.toMatch(/\n\s+at |\.ts:\d+|providers\[0\]|InvalidConfiguration/);
  });

  it("answers every route the same way, POSTs included, and never signs anyone in", async () => {
    const config = testConfig({ basePath: "no-slash" });
    const client = new TestClient(config, "http://localhost:3000/no-slash");
    for (const response of [
      await client.get("/providers"),
      await client.get("/csrf"),
      await client.post("/callback/credentials", { username: "ada", password: "correct horse battery staple" }),
      await client.get(`${BASE_URL}/session`),
    ]) {
      expect(response.status).toBe(500);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });
});

describe("the messages of a refused configuration", () => {
  // The wording users see, each problem on its own line in the order of the options (issue 19
  // replaced the schema library; these are the messages it gave).
  it.each([
    [42, ["config: Invalid input: expected object, received number"]],
    [{ ...base, session: { maxAge: -1.5 } }, ["session.maxAge: expected a whole number of seconds"]],
    [{ ...base, session: { maxAge: -1e20 } }, ["session.maxAge: expected a whole number of seconds", "session.maxAge: expected a positive number of seconds"]],
    [{ ...base, session: { updateAge: 0, maxAge: Infinity } }, ["session.maxAge: expected a number of seconds"]],
    [{ ...base, session: { acceptAuthJsCookies: 1, generateSessionToken: 1 } }, ["session.generateSessionToken: expected a function", "session.acceptAuthJsCookies: expected true or false"]],
    [{ ...base, session: "x" }, ["session: Invalid input: expected object, received string"]],
    [{ ...base, providers: [{}] }, ["providers[0].id: expected a string", "providers[0].name: expected a string", "providers[0].type: expected one of oidc, oauth, email, credentials, webauthn"]],
    [{ ...base, providers: [null] }, ["providers[0]: expected a provider object or a provider factory function"]],
    [{ ...base, adapter: [] }, ["adapter: Invalid input: expected object, received array"]],
    [{ ...base, basePath: new Date(0) }, ["basePath: Invalid input: expected string, received Date"]],
    [{ ...base, basePath: Number.NaN }, ["basePath: Invalid input: expected string, received NaN"]],
    [{ ...base, secret: ["s", 5] }, ["secret[1]: Invalid input: expected string, received number"]],
    [{ ...base, secret: ["", ""] }, ["secret[0]: must not be empty", "secret[1]: must not be empty"]],
    [{ ...base, secret: null }, ["secret: expected a non-empty string or a non-empty list of non-empty strings"]],
    [{ ...base, cookies: { a: 1, b: 2, sessionToken: 5 } }, ["cookies.sessionToken: Invalid input: expected object, received number", 'cookies: Unrecognized keys: "a", "b"']],
    [{ ...base, cookies: { sessionToken: undefined } }, ["cookies.sessionToken: Invalid input: expected object, received undefined"]],
    [{ ...base, cookies: new Date(0) }, ["cookies: Invalid input: expected record, received Date"]],
    [{ ...base, pages: { signIn: "HTTP://x", error: "https:/x" } }, ["pages.signIn: expected a path or an http(s) URL", "pages.error: expected a path or an http(s) URL"]],
    [{ ...base, redirectProxyUrl: 5 }, ["redirectProxyUrl: expected an absolute URL"]],
    [{ ...base, theme: { colorScheme: "blue", logo: 5 } }, ["theme.colorScheme: expected 'auto', 'dark' or 'light'", "theme.logo: Invalid input: expected string, received number"]],
    [{ ...base, skipCSRFCheck: "x", experimental: { enableWebAuthn: 1 } }, ["experimental.enableWebAuthn: Invalid input: expected boolean, received number", "skipCSRFCheck: Invalid input: expected symbol, received string"]],
  ])("refuses %j with these lines", (config, lines) => {
    let thrown: unknown;
    try {
      validateConfigShape(config);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidConfiguration);
    expect((thrown as Error).message).toBe(`Invalid appauth configuration:\n  ${lines.join("\n  ")}`);
  });

  it.each([
    ["an empty base path below the root", { ...base, basePath: "/" }],
    ["a proxy URL of another scheme, with spaces around", { ...base, redirectProxyUrl: " mailto:a@b " }],
    ["an empty provider name", { ...base, providers: [{ id: "e", name: "", type: "credentials", credentials: { username: {} }, authorize: () => null }] }],
    ["the largest safe whole number of seconds", { ...base, session: { maxAge: Number.MAX_SAFE_INTEGER, updateAge: 0 } }],
    ["an object of no plain prototype for a cookie's options", { ...base, cookies: { state: { options: new Date(0) } } }],
  ])("accepts %s", (_what, config) => {
    expect(() => getRuntime(config as AuthConfig, {})).not.toThrow();
  });
});
