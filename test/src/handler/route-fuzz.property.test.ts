/**
 * The bug class "a request alone makes the library answer 5xx (or throw)", tested as a class: hostile
 * requests at every route and method of the router, for configurations with every provider type
 * (credentials, OpenID Connect and plain OAuth 2 at the real OP, email over real SMTP, passkeys), JWT
 * and database sessions, back-channel and RP-initiated logout. Requests mix well-formed parts (a valid
 * CSRF pair, real session and check cookies, a logout token the OP signed) with malformed, mutated and
 * oversized ones, in the query, the body, the cookies and the headers. Whatever comes, the answer is a
 * Response below 500 and Auth never throws.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import * as errorClasses from "../../../src/errors.js";
import { AuthError } from "../../../src/errors.js";
import { Auth } from "../../../src/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import type { AuthConfig } from "../../../src/types.js";
import {
  ADA,
  ADA_PASSWORD,
  ADA_USERNAME,
  CALLBACK_COOKIE,
  CSRF_COOKIE,
  ORIGIN,
  passwordProvider,
  SESSION_COOKIE,
  testConfig,
  type TestConfig,
} from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { headerText, propertyOptions } from "../../helpers/property.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { BACKCHANNEL_CLIENT, logoutToken } from "../backchannel/fixtures.js";
import { linkIn } from "../email/fixtures.js";
import { CHECK_COOKIES, discover, oidcProvider, plainOAuthProvider } from "../oauth/fixtures.js";

const ACTIONS = [
  "providers", "session", "csrf", "signin", "signout", "callback", "verify-request", "error", "webauthn-options", "backchannel-logout",
] as const;
const PROVIDER_IDS = ["credentials", "oidc", "plain", "nodemailer", "passkey"] as const;
const CHALLENGE_COOKIE = "appauth.challenge";

let op: TestProvider;
let smtp: TestSmtpServer;
let configs: { name: string; basePath: string; config: TestConfig }[] = [];

/** Values taken from real flows, for requests that get past the first checks. */
const real = {
  csrfCookie: "",
  csrfToken: "",
  jwtSession: "",
  databaseSession: "",
  checks: {} as Record<string, string>,
  challenge: "",
  logoutToken: "",
  /** The state the OP would send back to the callback of that sign-in. */
  state: "",
  /** An emailed sign-in link's query (token, email, callbackUrl). */
  link: "",
};

function providers(strategy: "jwt" | "database"): AuthConfig["providers"] {
  const plain = plainOAuthProvider(op);
  const logout = strategy === "database" ? { backchannelLogout: true, rpInitiatedLogout: true } : { rpInitiatedLogout: true };
  return [
    passwordProvider(),
    oidcProvider(op, logout),
    plain,
    Nodemailer({ server: smtp.server, from: "fuzz <no-reply@example.test>" }),
    Passkey(),
  ];
}

beforeAll(async () => {
  [op, smtp] = await Promise.all([startTestProvider({ clients: [BACKCHANNEL_CLIENT] }), startSmtpServer()]);
  await discover(op);
  const common = { experimental: { enableWebAuthn: true } };
  configs = [
    { name: "jwt", basePath: "/auth", config: testConfig({ ...common, adapter: MemoryAdapter(), session: { strategy: "jwt" }, providers: providers("jwt") }) },
    {
      name: "database",
      basePath: "/auth",
      config: testConfig({ ...common, adapter: MemoryAdapter(), session: { strategy: "database" }, providers: providers("database") }),
    },
    {
      name: "database, own pages, /api/auth",
      basePath: "/api/auth",
      config: testConfig({
        ...common,
        basePath: "/api/auth",
        adapter: MemoryAdapter(),
        session: { strategy: "database", updateAge: 0 },
        pages: { signIn: "/login", error: "/api/auth/error", verifyRequest: "/check-mail" },
        providers: providers("database"),
        events: {
          signIn: () => {
            throw new Error("event handler bug");
          },
        },
      }),
    },
  ];

  const jwt = new TestClient(configs[0]!.config);
  await jwt.signIn(ADA_USERNAME, ADA_PASSWORD);
  real.jwtSession = jwt.cookie(SESSION_COOKIE) ?? "";
  real.csrfCookie = jwt.cookie(CSRF_COOKIE) ?? "";
  real.csrfToken = real.csrfCookie.split("|")[0] ?? "";

  // A credentials sign-in with database sessions stores a session for a user the store knows.
  for (const { config } of configs) await config.adapter!.createUser!({ ...ADA, emailVerified: null });
  const database = new TestClient(configs[1]!.config);
  await database.signIn(ADA_USERNAME, ADA_PASSWORD);
  real.databaseSession = database.cookie(SESSION_COOKIE) ?? "";

  // Check cookies of a real OIDC sign-in that was started (and never finished).
  const oauth = new TestClient(configs[1]!.config);
  const started = await oauth.post("/signin/oidc", { csrfToken: await oauth.csrf(), callbackUrl: "/" });
  real.state = new URL(started.headers.get("location")!).searchParams.get("state") ?? "";
  for (const name of Object.values(CHECK_COOKIES)) real.checks[name] = oauth.cookie(name) ?? "";

  const passkey = new TestClient(configs[1]!.config);
  await passkey.get("/webauthn-options/passkey?action=authenticate");
  real.challenge = passkey.cookie(CHALLENGE_COOKIE) ?? "";

  real.logoutToken = await logoutToken(op, { sub: "ada" });

  const mail = new TestClient(configs[1]!.config);
  await mail.post("/signin/nodemailer", { csrfToken: await mail.csrf(), email: "grace@example.test" });
  real.link = linkIn(await smtp.waitForMessage("grace@example.test")).search;
  expect(Object.entries(real).filter(([, value]) => !value).map(([name]) => name)).toEqual([]);
  expect(Object.values(real.checks).every(Boolean)).toBe(true);
});

afterAll(async () => {
  await Promise.all([op?.close(), smtp?.close()]);
});

/** A value from a real flow, as is, cut short, or with one character changed. */
const mutated = (value: () => string) =>
  fc.oneof(
    fc.constant(null).map(() => value()),
    fc.nat({ max: 400 }).map((n) => value().slice(0, n)),
    fc.nat({ max: 400 }).map((n) => {
      const v = value();
      const at = v.length ? n % v.length : 0;
      return `${v.slice(0, at)}${v[at] === "x" ? "y" : "x"}${v.slice(at + 1)}`;
    }),
  );

const oversized = fc.integer({ min: 4_000, max: 70_000 }).map((n) => "A".repeat(n));

const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "%", "%%", "null", "undefined", "[]", "{}", "https://evil.example", "//evil.example", "javascript:alert(1)", "\u0000", "é"),
  fc.constantFrom("Configuration", "AccessDenied", "Verification", "OAuthCallbackError", "CredentialsSignin", "register", "authenticate"),
  fc.constantFrom("ada@example.com", "eve@outside.test", "a@b", "@", "x@y@z", " ADA@EXAMPLE.COM ", "a,b@c.d", "<a@b.c>"),
  mutated(() => real.logoutToken),
  fc.constant(null).map(() => real.state),
  fc.constant(null).map(() => op.issuer),
  oversized,
);

/** The routes the router serves: actions alone, and the provider routes with each configured provider. */
const servedRoute = fc.oneof(
  fc.constantFrom(...ACTIONS).map((action): [string, string | undefined] => [action, undefined]),
  fc.tuple(fc.constantFrom("signin", "callback", "signout", "webauthn-options", "backchannel-logout"), fc.constantFrom(...PROVIDER_IDS)).map((pair): [string, string | undefined] => pair),
);

const route = fc.oneof(
  { weight: 8, arbitrary: servedRoute },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom(...ACTIONS),
      fc.option(fc.oneof(fc.constantFrom(...PROVIDER_IDS, "nope", "%2e%2e", "%ZZ", "%00", "a/b", ""), fc.string({ maxLength: 12 }).map(encodeURIComponent)), {
        nil: undefined,
      }),
    ),
  },
);

const queryKey = fc.oneof(
  fc.constantFrom(
    "callbackUrl", "error", "code", "state", "iss", "session_state", "token", "email", "provider", "type", "action", "csrfToken",
    "logout_token", "error_description", "response_mode", "prompt", "scope", "nonce", "user",
  ),
  fc.string({ maxLength: 8 }),
);

/** The `error` a page is asked to show: every type there is (server-side ones included), and any text. */
const errorType = fc.constantFrom(
  "Configuration", "AccessDenied", "Verification", "OAuthCallbackError", "CredentialsSignin", "MissingCSRF", "OAuthAccountNotLinked",
  "AdapterError", "CallbackRouteError", "InvalidCheck", "JWTSessionError", "MissingSecret", "UnknownAction", "Default", "default",
);

/** What an OP sends back to a callback: a code, the state (real or not), the issuer (real or not). */
const callbackQuery = fc
  .record({
    code: fc.oneof(fc.string({ maxLength: 43 }), oversized),
    state: fc.oneof(mutated(() => real.state), anyValue),
    iss: fc.oneof(fc.constant(null).map(() => op.issuer), anyValue),
  }, { requiredKeys: ["code"] })
  .map((params) => `?${new URLSearchParams(params as Record<string, string>)}`);

const query = fc.oneof(
  fc.constant(""),
  callbackQuery,
  fc
    .array(fc.oneof(fc.tuple(fc.constant("error"), fc.oneof(errorType, anyValue)), fc.tuple(queryKey, anyValue)), { maxLength: 5 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`),
  headerText(40).map((raw) => `?${raw.replace(/[#\s]/g, "")}`),
);

const cookiePair = fc.oneof(
  fc.tuple(fc.constant(SESSION_COOKIE), mutated(() => real.jwtSession)),
  fc.tuple(fc.constant(SESSION_COOKIE), mutated(() => real.databaseSession)),
  fc.tuple(fc.constant(CSRF_COOKIE), mutated(() => encodeURIComponent(real.csrfCookie))),
  fc.tuple(fc.constantFrom(...Object.values(CHECK_COOKIES)), fc.constant(null)).chain(([name]) => fc.tuple(fc.constant(name), mutated(() => real.checks[name]!))),
  fc.tuple(fc.constant(CHALLENGE_COOKIE), mutated(() => real.challenge)),
  fc.tuple(
    fc.constantFrom(
      SESSION_COOKIE, `${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`, `__Secure-${SESSION_COOKIE}`, CSRF_COOKIE, `__Host-${CSRF_COOKIE}`,
      CALLBACK_COOKIE, CHALLENGE_COOKIE, ...Object.values(CHECK_COOKIES),
    ),
    fc.oneof(headerText(60).map((v) => v.replace(/;/g, "")), oversized),
  ),
);

const cookies = fc.array(cookiePair, { maxLength: 6 }).map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join("; "));

const fieldName = fc.oneof(
  fc.constantFrom(
    "csrfToken", "callbackUrl", "username", "password", "email", "data", "action", "logout_token", "code", "state", "iss", "user",
    "__proto__", "constructor", "redirect",
  ),
  fc.string({ maxLength: 8 }),
);

const fieldValue = fc.oneof(
  { weight: 3, arbitrary: anyValue },
  { weight: 2, arbitrary: fc.constant("valid-csrf") },
  { weight: 1, arbitrary: fc.constantFrom(ADA_USERNAME, ADA_PASSWORD) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
);

const withCsrf = (text: string) => text.replaceAll("valid-csrf", real.csrfToken);

const formBody = fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 6 }).map((fields) => {
  const params = new URLSearchParams();
  for (const [k, v] of fields) params.append(k, v);
  return withCsrf(params.toString());
});

const jsonBody = fc.oneof(
  fc.dictionary(fieldName, fc.oneof(fieldValue, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 6 }).map((v) => withCsrf(JSON.stringify(v))),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('{"__proto__":{"csrfToken":"x"}}', "{", "[]", "null", '"str"', "1e999"),
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.tuple(fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8"), formBody),
  fc.tuple(fc.constantFrom("application/json", "APPLICATION/JSON; charset=utf-8"), jsonBody),
  fc.tuple(
    fc.constantFrom("text/plain", "multipart/form-data; boundary=x", "application/octet-stream", "", "application/jwt"),
    fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }), formBody),
  ),
  fc.constant(["application/x-www-form-urlencoded", `csrfToken=${"a".repeat(1_100_000)}`] as [string, string]),
);

const headers = fc.record(
  {
    "x-forwarded-host": fc.oneof(headerText(30), fc.constantFrom("evil.example", "app.example:8443", "a/b", "[::1]", "")),
    "x-forwarded-proto": fc.oneof(headerText(8), fc.constantFrom("https", "http", "")),
    "x-auth-return-redirect": fc.constantFrom("1", "true", "0"),
    accept: fc.constantFrom("text/html", "application/json", "*/*", ""),
    origin: fc.oneof(headerText(30), fc.constant("https://evil.example")),
    "content-length": fc.constantFrom("0", "-1", "abc", "99999999999"),
  },
  { requiredKeys: [] },
);

const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant("GET") },
  { weight: 5, arbitrary: fc.constant("POST") },
  { weight: 1, arbitrary: fc.constantFrom("HEAD", "PUT", "DELETE", "OPTIONS", "PATCH") },
);

const hostileRequest = fc.record({
  config: fc.nat({ max: 2 }),
  /** Carry the CSRF pair (cookie and field), so a POST gets past the CSRF check into its flow. */
  validCsrf: fc.boolean(),
  /** Carry the check cookies of a real OIDC sign-in, so a callback gets as far as the OP's token endpoint. */
  realChecks: fc.boolean(),
  method,
  route,
  trailingSlash: fc.boolean(),
  query,
  cookies,
  body,
  headers,
});

type HostileRequest = typeof hostileRequest extends fc.Arbitrary<infer R> ? R : never;

function build(r: HostileRequest): Request {
  const { basePath } = configs[r.config]!;
  const [action, providerId] = r.route;
  const path = `${basePath}/${action}${providerId === undefined ? "" : `/${providerId}`}${r.trailingSlash ? "/" : ""}`;
  const init: RequestInit = { method: r.method, headers: new Headers() };
  const requestHeaders = init.headers as Headers;
  for (const [name, value] of Object.entries(r.headers)) {
    // fetch's Request sets content-length itself from the body.
    if (value !== undefined && name !== "content-length") requestHeaders.set(name, value);
  }
  const pairs = [
    ...(r.validCsrf ? [`${CSRF_COOKIE}=${encodeURIComponent(real.csrfCookie)}`] : []),
    ...(r.realChecks ? Object.entries(real.checks).map(([name, value]) => `${name}=${value}`) : []),
    ...(r.cookies ? [r.cookies] : []),
  ];
  if (pairs.length) requestHeaders.set("cookie", pairs.join("; "));
  if (r.body && r.method !== "GET" && r.method !== "HEAD") {
    const [type, text] = r.body;
    if (type) requestHeaders.set("content-type", type);
    init.body = r.validCsrf && type.includes("urlencoded") && text.length < 100_000 ? `csrfToken=${encodeURIComponent(real.csrfToken)}&${text}` : text;
  }
  return new Request(`${ORIGIN}${path}${r.query}`, init);
}

/**
 * Requests shaped like the ones each flow expects, real in most parts and hostile in one or more, so
 * they get deep into the flows: to the OP's token endpoint, the store's tokens, the signature checks.
 */
const deepRequest = fc.record({
  config: fc.nat({ max: 2 }),
  family: fc.constantFrom("oauth-callback", "form-post-callback", "email-link", "logout-token", "passkey-answer", "email-request"),
  providerId: fc.constantFrom("oidc", "plain"),
  code: fc.oneof(fc.string({ maxLength: 43 }), fc.constantFrom("", "x".repeat(5_000))),
  value: anyValue,
  extra: fc.array(fc.tuple(queryKey, anyValue), { maxLength: 3 }),
  cookies,
  headers,
});

type DeepRequest = typeof deepRequest extends fc.Arbitrary<infer R> ? R : never;

function buildDeep(r: DeepRequest): Request {
  const { basePath } = configs[r.config]!;
  const headers = new Headers();
  for (const [name, value] of Object.entries(r.headers)) if (value !== undefined && name !== "content-length") headers.set(name, value);
  const cookiePairs = [`${CSRF_COOKIE}=${encodeURIComponent(real.csrfCookie)}`, ...Object.entries(real.checks).map(([n, v]) => `${n}=${v}`)];
  cookiePairs.push(`${CHALLENGE_COOKIE}=${real.challenge}`);
  if (r.cookies) cookiePairs.push(r.cookies);
  headers.set("cookie", cookiePairs.join("; "));
  const params = new URLSearchParams();
  let path: string;
  let method = "POST";
  switch (r.family) {
    case "oauth-callback":
    case "form-post-callback":
      path = `callback/${r.providerId}`;
      params.set("code", r.code);
      params.set("state", real.state);
      params.set("iss", op.issuer);
      method = r.family === "oauth-callback" ? "GET" : "POST";
      break;
    case "email-link":
      path = "callback/nodemailer";
      for (const [k, v] of new URLSearchParams(real.link)) params.set(k, v);
      method = "GET";
      break;
    case "logout-token":
      path = "backchannel-logout/oidc";
      params.set("logout_token", real.logoutToken);
      break;
    case "passkey-answer":
      path = "callback/passkey";
      params.set("csrfToken", real.csrfToken);
      params.set("action", "authenticate");
      params.set("data", JSON.stringify({ id: r.value, rawId: r.value, type: "public-key", response: { clientDataJSON: r.value } }));
      break;
    case "email-request":
      path = "signin/nodemailer";
      params.set("csrfToken", real.csrfToken);
      params.set("email", r.value);
      break;
  }
  // One or more fields replaced or added by hostile values.
  for (const [k, v] of r.extra) params.set(k, v);
  const url = `${ORIGIN}${basePath}/${path}`;
  if (method === "GET") return new Request(`${url}?${params}`, { headers });
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(url, { method, headers, body: params.toString() });
}

describe("hostile requests at every route, method and provider type", () => {
  it("get an answer below 500 and never make Auth throw", async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (r) => {
        const req = build(r);
        const { config, name } = configs[r.config]!;
        let response: Response;
        try {
          response = await Auth(req, config);
        } catch (error) {
          expect.fail(`Auth threw for ${req.method} ${req.url} (${name}): ${String(error)}`);
        }
        const text = await response.text();
        expect(response.status, `${response.status} for ${req.method} ${req.url} (${name}): ${text.slice(0, 300)}`).toBeLessThan(500);
        const location = response.headers.get("location");
        if (location) expect(() => new URL(location)).not.toThrow();
      }),
      propertyOptions(500),
    );
  });

  it("get an answer below 500 deep inside each flow, too", async () => {
    await fc.assert(
      fc.asyncProperty(deepRequest, async (r) => {
        const req = buildDeep(r);
        const { config, name } = configs[r.config]!;
        const response = await Auth(req, config);
        const text = await response.text();
        expect(response.status, `${response.status} for ${r.family}: ${req.method} ${req.url} (${name}): ${text.slice(0, 300)}`).toBeLessThan(500);
      }),
      propertyOptions(250),
    );
  });

  it("show every error type on every page with a status below 500 (a table of all of them)", async () => {
    const types = Object.values(errorClasses)
      .filter((value): value is typeof AuthError => typeof value === "function" && value.prototype instanceof AuthError)
      .map((errorClass) => errorClass.type);
    expect(types).toEqual(expect.arrayContaining(["Configuration", "AccessDenied", "Verification", "AdapterError", "MissingSecret"]));
    for (const { config, basePath, name } of configs) {
      for (const page of ["error", "signin", "signout", "verify-request"]) {
        for (const type of [...types, "Default", ""]) {
          const response = await Auth(new Request(`${ORIGIN}${basePath}/${page}?error=${encodeURIComponent(type)}&code=x`), config);
          expect(response.status, `${page}?error=${type} (${name})`).toBeLessThan(500);
        }
      }
    }
  });

  it("reach every action of the router and every provider type", () => {
    // The generator's coverage, so a change to it cannot quietly stop exercising a route.
    const seen = new Set<string>();
    fc.sample(hostileRequest, { numRuns: 500, seed: 1 }).forEach((r) => {
      seen.add(`${r.method === "GET" || r.method === "POST" ? r.method : "other"} ${r.route[0]} ${r.route[1] ?? "-"}`);
    });
    for (const action of ACTIONS) for (const m of ["GET", "POST"]) expect([...seen].some((s) => s.startsWith(`${m} ${action} `))).toBe(true);
    for (const id of PROVIDER_IDS) {
      for (const action of ["signin", "callback"]) expect(seen.has(`POST ${action} ${id}`) || seen.has(`GET ${action} ${id}`)).toBe(true);
    }
  });
});
