import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InspectionEvent } from "xstate";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { INSPECTED_MACHINES } from "../../../src/flows/inspect-allowlist.js";
import { Auth } from "../../../src/index.js";
import Credentials from "../../../src/providers/credentials.js";
import type { AuthConfig } from "../../../src/types.js";
import { BASE_URL, testConfig } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { emailConfig, mailedLink } from "../email/fixtures.js";
import { authorizeAt, browser, deliver, expectSignedInAs, oidcProvider } from "../oauth/fixtures.js";
import { PasskeyClient, passkeyConfig, softAuthenticator } from "../webauthn/fixtures.js";

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
    expect(seen).toMatch(/\[string:\d+\]/);
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

/**
 * Issue 24, item 7: the inspector shows by allowlist. Real flows run with `inspect` set and marker
 * values wherever a person's data travels — the typed identifier, the email address, the name, the
 * callback URL, custom claims under harmless-looking keys (`outcome`, `providerId`, `role`) — and
 * not one marker may appear anywhere in any inspection event, while state names and event types do.
 */
describe("an inspection observer, shown data by allowlist", () => {
  /** A marker no flow could produce by itself; lowercase, so an email address keeps it as it is. */
  const marker = (label: string): string => `zq${label}${randomUUID().replaceAll("-", "").slice(0, 10)}`;

  function watched(): { seen: InspectionEvent[]; inspect: (event: InspectionEvent) => void } {
    const seen: InspectionEvent[] = [];
    return { seen, inspect: (event) => void seen.push(event) };
  }

  function expectNoMarker(seen: InspectionEvent[], markers: string[]): void {
    expect(seen.length).toBeGreaterThan(0);
    for (const event of seen) {
      const wire = JSON.stringify(event);
      for (const value of markers) expect(wire, `${event.type} shows ${value}`).not.toContain(value);
    }
  }

  function statesOf(seen: InspectionEvent[]): unknown[] {
    return seen.flatMap((event) => ("snapshot" in event ? [(event.snapshot as { value?: unknown }).value] : []));
  }

  function eventTypesOf(seen: InspectionEvent[]): string[] {
    return seen.flatMap((event) => (event.type === "@xstate.event" ? [event.event.type as string] : []));
  }

  it("a credentials sign-in, a failed one, and session reads: no identifier, name, email, callback URL or claim", async () => {
    const { seen, inspect } = watched();
    const username = marker("user");
    const name = marker("name");
    const email = `${marker("mail")}@example.test`;
    const callbackUrl = `/${marker("path")}?next=${marker("query")}`;
    const claims = { outcome: marker("claima"), providerId: marker("claimb"), role: marker("claimc") };
    const config = testConfig({
      inspect,
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: (c) => (c.password === "right" ? { id: marker("id"), name, email } : null),
        }),
      ],
      callbacks: { jwt: ({ token }) => ({ ...token, ...claims }), session: ({ session, token }) => ({ ...session, role: token.role }) },
    });
    const client = new TestClient(config, BASE_URL);
    const csrfToken = await client.csrf();
    await client.post("/callback/credentials", { csrfToken, username, password: "wrong", callbackUrl });
    await client.post("/callback/credentials", { csrfToken, username, password: "right", callbackUrl });
    expect(await client.session()).toMatchObject({ user: { name, email }, role: claims.role });

    expectNoMarker(seen, [username, name, email, callbackUrl.slice(1, 12), ...Object.values(claims)]);
    expect(statesOf(seen)).toEqual(expect.arrayContaining(["authorizing", "checkingSignIn", "issuingSession", "signedIn"]));
    expect(eventTypesOf(seen)).toEqual(expect.arrayContaining(["xstate.init", expect.stringMatching(/^xstate\.done\.actor\./)]));
  });

  it("is documented for every machine that has a list", () => {
    const docs = readFileSync(new URL("../../../docs/concepts/machines.md", import.meta.url), "utf8");
    for (const id of INSPECTED_MACHINES) expect(docs).toContain(`| \`${id}\` |`);
  });

  it("shows the values a flow declares safe: the provider id, booleans, the error type", async () => {
    const { seen, inspect } = watched();
    const config = testConfig({ inspect });
    const client = new TestClient(config, BASE_URL);
    await client.post("/callback/credentials", { csrfToken: await client.csrf(), username: "ada", password: "wrong" });
    const wire = JSON.stringify(seen);
    expect(wire).toContain('"providerId":"credentials"');
    expect(wire).toContain('"hasAdapter":false');
    expect(wire).toContain('"CredentialsSignin"');
    expect(wire).toMatch(/"username":"\[string:3\]"/);
  });

  it("a passkey registration and sign-in: no address, and no credential id or public key", async () => {
    const { seen, inspect } = watched();
    const config = passkeyConfig({ inspect });
    const address = `${marker("passkey")}@example.test`;
    const authenticator = await softAuthenticator();
    await new PasskeyClient(config).register(authenticator, address);
    const client = new PasskeyClient(config);
    await client.authenticate(authenticator);
    expect(await client.signedInAs()).toBe(address);
    const [stored] = await config.adapter.listAuthenticatorsByUserId((await config.adapter.getUserByEmail(address))!.id);
    expectNoMarker(seen, [address, stored!.credentialID, stored!.credentialID.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")]);
    expect(statesOf(seen)).toEqual(expect.arrayContaining(["choosingCeremony"]));
  });

  describe("with mail and an OpenID Provider", () => {
    let smtp: TestSmtpServer;
    let op: TestProvider;
    const opName = marker("opname");
    const opEmail = `${marker("opmail")}@example.com`;
    const opPicture = `https://img.example/${marker("picture")}.png`;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      op = await startTestProvider({ accounts: { ada: { email: opEmail, email_verified: true, name: opName, picture: opPicture } } });
    });
    afterAll(async () => {
      await smtp?.close();
      await op?.close();
    });

    it("an email-link sign-in: no address and no callback URL", async () => {
      const { seen, inspect } = watched();
      const client = new TestClient(emailConfig({ smtp, config: { inspect } }), BASE_URL);
      const address = `${marker("link")}@example.test`;
      const path = marker("emailpath");
      const { link } = await mailedLink(client, smtp, address, { callbackUrl: `/${path}` });
      await client.get(link.href);
      expect(await client.session()).toMatchObject({ user: { email: address } });
      expectNoMarker(seen, [address, path, link.searchParams.get("token")!]);
      expect(statesOf(seen)).toEqual(expect.arrayContaining(["consumingToken"]));
    });

    it("an OpenID Connect sign-in: no name, email, picture, claim or callback URL from the provider or the browser", async () => {
      const { seen, inspect } = watched();
      const client = browser(testConfig({ providers: [oidcProvider(op)], adapter: MemoryAdapter(), inspect }));
      const path = marker("oauthpath");
      await expectSignedInAs(client, await deliver(client, await authorizeAt(op, client, { callbackUrl: `/${path}` })), opEmail);
      expectNoMarker(seen, [opName, opEmail, opPicture, path]);
      expect(statesOf(seen)).toEqual(expect.arrayContaining(["exchangingCode", "completing", "signedIn"]));
      expect(JSON.stringify(seen)).toContain('"providerId":"oidc"');
    });
  });
});
