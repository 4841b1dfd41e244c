import { describe, expect, it } from "vitest";
import { Auth } from "../../../src/index.js";
import Credentials from "../../../src/providers/credentials.js";
import type { AuthConfig } from "../../../src/types.js";

const base = "http://localhost:3000/auth";

function configWith(events: unknown[]): AuthConfig {
  return {
    secret: "inspect-secret-0123456789abcdefghij",
    trustHost: true,
    inspect: (event) => events.push(event),
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: (c) => (c.password === "hunter2-correct" ? { id: "u1", name: "Ada" } : null),
      }),
    ],
  };
}

async function signIn(config: AuthConfig): Promise<string> {
  const csrf = await Auth(new Request(`${base}/csrf`), config);
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await Auth(
    new Request(`${base}/callback/credentials`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "hunter2-correct" }),
    }),
    config,
  );
  const session = response.headers.getSetCookie().find((c) => c.startsWith("appauth.session-token="));
  expect(session).toBeDefined();
  return session!.split(";")[0]!.slice("appauth.session-token=".length);
}

describe("the inspect option", () => {
  it("lets an observer watch a sign-in move through its states", async () => {
    const events: unknown[] = [];
    await signIn(configWith(events));
    const states = events
      .map((e) => (e as { snapshot?: { value?: unknown } }).snapshot?.value)
      .filter((v): v is string => typeof v === "string");
    expect(states).toEqual(expect.arrayContaining(["authorizing", "checkingSignIn", "issuingSession", "signedIn"]));
  });

  it("never hands the observer the password, the CSRF token or the session token", async () => {
    const events: unknown[] = [];
    const config = configWith(events);
    const sessionToken = await signIn(config);
    await Auth(new Request(`${base}/session`, { headers: { cookie: `appauth.session-token=${sessionToken}` } }), config);
    const seen = JSON.stringify(events);
    expect(events.length).toBeGreaterThan(0);
    expect(seen).not.toContain("hunter2-correct");
    expect(seen).not.toContain(sessionToken.slice(0, 40));
    expect(seen).toContain("[redacted]");
  });

  it("keeps the flow going when the observer throws", async () => {
    const config = configWith([]);
    config.inspect = () => {
      throw new Error("observer broke");
    };
    config.logger = { warn: () => {}, error: () => {} };
    await expect(signIn(config)).resolves.toMatch(/^ey/);
  });
});
