/**
 * Nothing a person typed travels in a URL, a cookie in clear or a log line (DESIGN §6). Random
 * marker values (plain text, email-like addresses, digit codes) are posted under every field name a
 * form might use, through every POST route of the route table (credentials with a wrong and a right
 * password, email, passkeys, OAuth, sign-out, session update), and sent as query values to every
 * GET route; with the built-in pages and with an application's own. No marker may appear in a
 * `Location`, a JSON `url`, a `Set-Cookie` line, or a log line at any level, nor on the page a
 * refusal leads to, except the one account field the form declares as `type: "email"`.
 */
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { ROUTES } from "../../../src/routes.js";
import Credentials from "../../../src/providers/credentials.js";
import Email from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import type { OAuthProviderConfig } from "../../../src/providers/oauth-types.js";
import type { AuthConfig, User } from "../../../src/types.js";
import { recordingLogger, testConfig, type TestConfig } from "../../helpers/config.js";
import { propertyOptions } from "../../helpers/property.js";
import { TestClient } from "../../helpers/test-client.js";

const RIGHT_PASSWORD = "the right password";
const USER: User = { id: "user-docs", name: "Docs User", email: "docs@example.test" };

/** Field names a sign-in form may carry: account names, secrets, one-time codes, anything. */
const FIELD_NAMES = ["email", "username", "password", "otp", "pin", "code", "token", "name", "identifier", "data", "action"];

/** Accepts any attempt whose password is right; never repeats what it was given. */
const authorize = (credentials: Partial<Record<string, unknown>>): User | null => (credentials.password === RIGHT_PASSWORD ? { ...USER } : null);

/** The credentials provider of Auth.js's documentation: no field declares a type. */
const docsCredentials = Credentials({ id: "docs", credentials: { email: {}, password: {}, otp: {}, pin: {} }, authorize });
/** A form that declares its account field `type: "email"`: that one value may come back on the page. */
const typedCredentials = Credentials({
  id: "typed",
  credentials: { email: { type: "email" }, password: { type: "password" }, otp: { type: "text" }, pin: { type: "tel" } },
  authorize,
});
/** An OAuth provider whose endpoints are never reached by these requests (no callback gets past its checks). */
const oauth: OAuthProviderConfig = {
  id: "plain",
  name: "Plain OAuth",
  type: "oauth",
  clientId: "client",
  clientSecret: "secret",
  authorization: { url: "https://op.invalid/auth", params: { scope: "openid email" } },
  token: "https://op.invalid/token",
  userinfo: "https://op.invalid/me",
};

const CUSTOM_PAGES = { signIn: "/login", signOut: "/logout", error: "/oops", verifyRequest: "/check-mail", newUser: "/welcome" };

function configOf(pages: boolean): TestConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    providers: [docsCredentials, typedCredentials, Email({ id: "email", sendVerificationRequest: async () => {} }), Passkey(), oauth],
    experimental: { enableWebAuthn: true },
    logger: recordingLogger(),
    debug: true,
    // Low, so a run reaches the limiter's refusal in a few attempts.
    rateLimit: { credentials: { perClient: 3, perIdentifier: 3, window: 900 } },
    ...(pages ? { pages: CUSTOM_PAGES } : {}),
  } as Partial<AuthConfig>);
}

/** Every path of the route table for `method`, a provider route once per configured provider it serves. */
function pathsOf(config: AuthConfig, method: "GET" | "POST"): string[] {
  const providers = (config.providers as { id: string; type: string }[]) ?? [];
  return ROUTES.filter((row) => row.method === method).flatMap((row) =>
    row.providers
      ? providers.filter((p) => (row.providers as readonly string[]).includes(p.type)).map((p) => `/${row.action}/${p.id}`)
      : [`/${row.action}`],
  );
}

/** Values a person might type: text with punctuation and spaces, an email address, a digit code. */
const marker: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9 !$'()*,.;~-]{6,14}$/).map((text) => `Mk${text}Q`),
  fc.tuple(fc.stringMatching(/^[a-z0-9]{4,10}$/), fc.stringMatching(/^[a-z]{3,8}$/)).map(([local, domain]) => `${local}.m@${domain}.test`),
  fc.stringMatching(/^[0-9]{8,9}$/),
);

/** One distinct marker per field name, plus one field of a random name. */
const typedForm = fc
  .tuple(fc.uniqueArray(marker, { minLength: FIELD_NAMES.length + 1, maxLength: FIELD_NAMES.length + 1 }), fc.stringMatching(/^[a-z][a-z_]{2,10}$/))
  .filter(([, extra]) => !FIELD_NAMES.includes(extra) && !["csrftoken", "callbackurl"].includes(extra))
  .map(([values, extra]) => Object.fromEntries([...FIELD_NAMES, extra].map((name, i) => [name, values[i]!])));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The forms a value takes in a URL, a cookie or a header, each as a whole token (not inside a longer run of letters or digits). */
function patternsOf(value: string): RegExp[] {
  const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)]);
  return [...forms].map((form) => new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(form)}(?![A-Za-z0-9])`));
}

function leaked(text: string, values: string[]): string[] {
  return values.filter((value) => patternsOf(value).some((pattern) => pattern.test(text)));
}

interface Observed {
  where: string;
  text: string;
}

/** What an answer shows to anyone but the page itself: Location, Set-Cookie lines, a JSON body's `url`. */
async function observe(route: string, response: Response): Promise<Observed[]> {
  const out: Observed[] = [{ where: `${route} Location`, text: response.headers.get("location") ?? "" }];
  for (const line of response.headers.getSetCookie()) out.push({ where: `${route} Set-Cookie`, text: line });
  if ((response.headers.get("content-type") ?? "").includes("application/json")) {
    const body = (await response.clone().json().catch(() => null)) as { url?: unknown } | null;
    if (body && typeof body.url === "string") out.push({ where: `${route} JSON url`, text: body.url });
  }
  return out;
}

function logLines(config: TestConfig): Observed[] {
  return config.logger.entries.map((entry) => ({ where: `log ${entry.level} ${entry.code}`, text: inspect(entry.message, { depth: 6 }) }));
}

/** A request the way a fetch client or a form sends it, with the CSRF token; the built-in forms' fields. */
async function post(client: TestClient, path: string, form: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  const csrfToken = await client.csrf();
  if (path === "/session") return client.postJson(path, { csrfToken, data: form }, { headers });
  return client.post(path, { ...form, csrfToken, callbackUrl: "/after" }, { headers });
}

/** The page a redirect leads to, when it is one of the library's own. */
async function follow(client: TestClient, response: Response): Promise<string | undefined> {
  const location = response.headers.get("location") ?? ((await response.clone().json().catch(() => null)) as { url?: string } | null)?.url;
  if (!location || !location.startsWith(client.baseUrl)) return undefined;
  return (await client.get(location)).text();
}

describe.each([
  { pages: false, name: "the built-in pages" },
  { pages: true, name: "an application's own pages" },
])("typed values with $name", ({ pages }) => {
  it("never reach a Location, a JSON url, a Set-Cookie in clear or a log line, through any POST route", async () => {
    await fc.assert(
      fc.asyncProperty(typedForm, fc.boolean(), async (form, fetchClient) => {
        const config = configOf(pages);
        const headers: Record<string, string> = fetchClient ? { "X-Auth-Return-Redirect": "1" } : {};
        const values = Object.values(form);
        const seen: Observed[] = [];
        for (const path of pathsOf(config, "POST")) {
          // A credentials form is posted with a wrong password, then with the right one.
          const variants = path.startsWith("/callback/") ? [form, { ...form, password: RIGHT_PASSWORD }] : [form];
          for (const fields of variants) {
            const client = new TestClient(config);
            // Sign-out and the session update act on a session: the person is signed in first.
            if (path === "/signout" || path === "/session") await post(client, "/callback/docs", { password: RIGHT_PASSWORD }, {});
            const response = await post(client, path, fields, headers);
            seen.push(...(await observe(`POST ${path}`, response)));
            const page = await follow(client, response);
            seen.push(...client.lastSetCookies.map((cookie) => ({ where: `page after POST ${path} Set-Cookie`, text: cookie.header })));
            // The page may show the account field of a form that declared it an email, and nothing else typed.
            const shown = path === "/callback/typed" || path === "/signin/email" ? values.filter((v) => v !== form.email) : values;
            if (page !== undefined) expect(leaked(page, shown), `page after POST ${path}`).toEqual([]);
          }
        }
        // Wrong passwords until the limiter refuses: its refusal, its log line and its event carry nothing typed either.
        const client = new TestClient(config);
        for (let attempt = 0; attempt < 6; attempt++) seen.push(...(await observe("POST /callback/docs (limited)", await post(client, "/callback/docs", form, headers))));
        expect(config.logger.codes("warn")).toContain("RateLimited");
        seen.push(...logLines(config));
        const leaks = seen.flatMap((observed) => leaked(observed.text, values).map((value) => `${observed.where}: ${value}`));
        expect(leaks).toEqual([]);
      }),
      propertyOptions(12),
    );
  }, 120_000);

  it("never reach a Location, a Set-Cookie in clear, a log line or the page, from the query of any GET route", async () => {
    await fc.assert(
      fc.asyncProperty(typedForm, async (query) => {
        const config = configOf(pages);
        const values = Object.values(query);
        // The names the pages read themselves, each holding a typed value as well.
        const params = new URLSearchParams({ ...query, error: query.email!, provider: query.pin!, type: query.otp! });
        const seen: Observed[] = [];
        for (const path of pathsOf(config, "GET")) {
          const client = new TestClient(config);
          const response = await client.get(`${path}?${params}`);
          seen.push(...(await observe(`GET ${path}`, response)));
          if ((response.headers.get("content-type") ?? "").includes("text/html")) {
            expect(leaked(await response.text(), values), `page of GET ${path}`).toEqual([]);
          }
        }
        seen.push(...logLines(config));
        const leaks = seen.flatMap((observed) => leaked(observed.text, values).map((value) => `${observed.where}: ${value}`));
        expect(leaks).toEqual([]);
      }),
      propertyOptions(12),
    );
  }, 120_000);
});
