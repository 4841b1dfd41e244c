/**
 * Fail closed: whatever goes wrong while a session is read — a callback that throws, a decoder
 * that throws, a store that is down, a config that cannot be resolved — `auth` answers `null` in
 * every form (never an error object that looks like a session), and the middleware lets no one
 * through on it.
 */
import { NextRequest } from "next/server.js";
import { describe, expect, it, vi } from "vitest";
import AppAuth, { type AppAuthConfig } from "../../../integrations/next/index.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { ADA } from "../../helpers/config.js";
import { appConfig, nodeRequest, nodeResponse, ORIGIN, signedIn, type Browser } from "./fixtures.js";
import { inRequest, RequestScope } from "./next-request-scope.js";

vi.mock("next/headers.js", async () => (await import("./next-request-scope.js")).nextHeaders);

/** Every form of `auth` for the browser's cookies: server component, API route, getServerSideProps, wrapper. */
async function everyForm(config: AppAuthConfig, browser: Browser): Promise<unknown[]> {
  const app = AppAuth(config);
  const seen: unknown[] = [];
  seen.push(await inRequest(new RequestScope({ cookies: browser.record(), canSetCookies: false }), () => app.auth()));
  seen.push(await app.auth(nodeRequest("/api/me", browser.header()), nodeResponse()));
  seen.push(await app.auth({ req: nodeRequest("/page", browser.header()), res: nodeResponse() }));
  await app.auth((request) => {
    seen.push(request.auth);
    return new Response(null);
  })(browser.request("/api/me"), undefined);
  return seen;
}

/** A config (same secret, same cookies) that signs in normally but fails when the session is read. */
function failingRead(callbacks: AppAuthConfig["callbacks"], extra: Partial<AppAuthConfig> = {}): AppAuthConfig {
  return appConfig({ ...extra, callbacks: { authorized: ({ auth }) => Boolean(auth?.user), ...callbacks } });
}

describe("auth fails closed", () => {
  it("is null in every form when the session callback throws", async () => {
    const { browser } = await signedIn();
    const config = failingRead({
      session: () => {
        throw new Error("session callback failed");
      },
    });
    expect(await everyForm(config, browser)).toEqual([null, null, null, null]);
  });

  it("is null in every form when the jwt callback throws on a read", async () => {
    const { browser } = await signedIn();
    const config = failingRead({
      jwt: () => {
        throw new Error("jwt callback failed");
      },
    });
    expect(await everyForm(config, browser)).toEqual([null, null, null, null]);
  });

  it("is null in every form when a custom jwt.decode throws", async () => {
    const { browser } = await signedIn();
    const config = failingRead({}, {
      jwt: {
        decode: () => {
          throw new Error("decoder failed");
        },
      },
    });
    expect(await everyForm(config, browser)).toEqual([null, null, null, null]);
  });

  it("is null when a session callback returns something that is not a session object", async () => {
    const { browser } = await signedIn();
    const config = failingRead({ session: () => "signed in" as never });
    expect(await everyForm(config, browser)).toEqual([null, null, null, null]);
  });

  it("is null when the database is down, for a database session", async () => {
    const adapter = MemoryAdapter();
    // Credentials sign-ins get a database session for a user the store knows.
    await adapter.createUser({ ...ADA, emailVerified: null });
    const config = appConfig({ adapter });
    const { browser } = await signedIn(config);
    adapter.getSessionAndUser = () => Promise.reject(new Error("connection refused"));
    expect(await everyForm(config, browser)).toEqual([null, null, null, null]);
  });

  it("is null when a lazy config throws, and says why in the server log", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { browser } = await signedIn();
    const app = AppAuth(() => {
      throw new Error("secrets manager unreachable");
    });
    const scope = new RequestScope({ cookies: browser.record() });
    expect(await inRequest(scope, () => app.auth())).toBeNull();
    expect(await app.auth(nodeRequest("/api/me", browser.header()), nodeResponse())).toBeNull();
    expect(errors.mock.calls.some((call) => String(call.join(" ")).includes("secrets manager unreachable"))).toBe(true);
    errors.mockRestore();
  });

  it("is null when the configuration is invalid", async () => {
    const { browser } = await signedIn();
    const app = AppAuth(appConfig({ session: { maxAge: -1 } }));
    expect(await inRequest(new RequestScope({ cookies: browser.record() }), () => app.auth())).toBeNull();
  });
});

describe("the middleware fails closed", () => {
  it("sends a signed-in person to sign in when their session cannot be read", async () => {
    const { browser } = await signedIn();
    const config = failingRead({
      session: () => {
        throw new Error("session callback failed");
      },
    });
    const response = await AppAuth(config).auth(browser.request("/dashboard"));
    expect(response.status).toBe(307);
    expect(new URL(response.headers.get("location")!, ORIGIN).pathname).toBe("/api/auth/signin");
  });

  it("lets nothing through when the configuration cannot be resolved", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const app = AppAuth(() => {
      throw new Error("secrets manager unreachable");
    });
    const response = await app.auth(new NextRequest(`${ORIGIN}/dashboard`));
    expect(response.headers.get("x-middleware-next")).toBeNull();
    expect(response.status).toBe(500);
    vi.mocked(console.error).mockRestore();
  });
});
