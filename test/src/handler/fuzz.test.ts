import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Auth } from "../../../src/index.js";
import type { AuthConfig } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, CALLBACK_COOKIE, CSRF_COOKIE, ORIGIN, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { headerText, propertyOptions } from "../../helpers/property.js";
import { TestClient } from "../../helpers/test-client.js";

const configs: AuthConfig[] = [
  testConfig(),
  testConfig({
    basePath: "/api/auth",
    pages: { signIn: "/login", error: "/api/auth/error" },
    session: { updateAge: 0 },
    callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, data: session } : token) },
    events: {
      signIn: () => {
        throw new Error("event handler bug");
      },
    },
  }),
];

/** A session cookie, a CSRF cookie and its token, valid under the first config: some requests are signed in. */
let valid = { session: "", csrfCookie: "", csrfToken: "" };

beforeAll(async () => {
  const client = new TestClient(configs[0]!);
  await client.signIn(ADA_USERNAME, ADA_PASSWORD);
  valid = {
    session: client.cookie(SESSION_COOKIE)!,
    csrfCookie: encodeURIComponent(client.cookie(CSRF_COOKIE)!),
    csrfToken: client.cookie(CSRF_COOKIE)!.split("|")[0]!,
  };
});

const segment = fc.oneof(
  fc.constantFrom(
    "providers", "session", "csrf", "signin", "signout", "callback", "error", "verify-request", "webauthn-options",
    "credentials", "github", "", ".", "..", "%2e%2e", "%2F", "%5C", "%00", "%ZZ", "%E0%A4%A", "%C3%A9", "\\", "auth", "api",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

/** A path for a config mounted at `base`: mostly its own routes, often something else entirely. */
const pathFor = (base: string) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom("session", "csrf", "providers", "signin", "signout", "callback/credentials", "signin/credentials", "error", "verify-request", "callback/nope"),
          fc.constantFrom("", "", "", "/"),
        )
        .map(([route, tail]) => `${base}/${route}${tail}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(base, "/auth", "/api/auth", "", "/x", "//evil.example/auth", `${base}/..`), fc.array(segment, { maxLength: 4 }))
        .map(([prefix, segments]) => `${prefix}/${segments.join("/")}`),
    },
  );

const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom("callbackUrl", "error", "code", "provider", "csrfToken"), fc.string({ maxLength: 8 })),
        fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("Configuration", "AccessDenied", "https://evil.example", "//x", "%")),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`),
  headerText(30).map((raw) => `?${raw.replace(/[#\s]/g, "")}`),
);

const cookieName = fc.oneof(
  fc.constantFrom(
    SESSION_COOKIE, `${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`, `${SESSION_COOKIE}.7`, `__Secure-${SESSION_COOKIE}`,
    CSRF_COOKIE, `__Host-${CSRF_COOKIE}`, CALLBACK_COOKIE,
  ),
  fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/),
);

const cookieValue = fc.oneof(
  headerText(60).map((v) => v.replace(/;/g, "")),
  fc.constantFrom("", "%", "%%", '"', '""', "|", "a|b", "null"),
  fc.integer({ min: 4_000, max: 120_000 }).map((n) => "A".repeat(n)),
  fc.constant("signed-in").map(() => valid.session),
  fc.constant("csrf").map(() => valid.csrfCookie),
  fc.nat({ max: 200 }).map((n) => valid.session.slice(0, n) + "x" + valid.session.slice(n + 1)),
);

const cookies = fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 5 }).map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join("; "));

const formBody = fc
  .dictionary(
    fc.oneof(fc.constantFrom("csrfToken", "callbackUrl", "username", "password", "data", "__proto__", "constructor"), fc.string({ maxLength: 8 })),
    fc.oneof(fc.string({ maxLength: 40 }), fc.constant("valid-csrf"), fc.constantFrom(ADA_USERNAME, ADA_PASSWORD)),
    { maxKeys: 5 },
  )
  .map((fields) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) params.append(k, v === "valid-csrf" ? valid.csrfToken : v);
    return params.toString();
  });

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        csrfToken: fc.oneof(fc.constant("valid-csrf"), fc.jsonValue({ maxDepth: 1 })),
        data: fc.jsonValue({ maxDepth: 3 }),
        callbackUrl: fc.jsonValue({ maxDepth: 1 }),
        username: fc.oneof(fc.constant(ADA_USERNAME), fc.jsonValue({ maxDepth: 1 })),
        password: fc.oneof(fc.constant(ADA_PASSWORD), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    )
    .map((body) => JSON.stringify(body).replace('"valid-csrf"', JSON.stringify(valid.csrfToken))),
  fc.constantFrom('{"__proto__":{"csrfToken":"x","username":"ada"}}', "{", "[]", "null", '"str"', "1e999"),
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.tuple(fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8"), formBody),
  fc.tuple(fc.constantFrom("application/json", "application/json; charset=utf-8", "APPLICATION/JSON"), jsonBody),
  fc.tuple(
    fc.constantFrom("text/plain", "multipart/form-data; boundary=x", "application/octet-stream", "", "application/json"),
    fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }), formBody),
  ),
  fc.constant(["application/x-www-form-urlencoded", `csrfToken=${"a".repeat(1_100_000)}`] as [string, string]),
);

const extraHeaders = fc.record(
  {
    "x-forwarded-host": fc.oneof(headerText(30), fc.constantFrom("evil.example", "app.example:8443", "a/b", "[::1]", "")),
    "x-forwarded-proto": fc.oneof(headerText(8), fc.constantFrom("https", "http", "ftp", "")),
    "x-auth-return-redirect": fc.constantFrom("1", "true", "0", ""),
    accept: fc.constantFrom("text/html", "application/json", "*/*"),
    origin: fc.oneof(headerText(30), fc.constant("https://evil.example")),
  },
  { requiredKeys: [] },
);

const method = fc.oneof(
  { weight: 3, arbitrary: fc.constant("GET") },
  { weight: 4, arbitrary: fc.constant("POST") },
  { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "HEAD") },
);

const request = fc.nat({ max: configs.length - 1 }).chain((config) =>
  fc.record({
    config: fc.constant(config),
    method,
    path: pathFor(configs[config]!.basePath ?? "/auth"),
    query,
    cookies,
    body,
    headers: extraHeaders,
  }),
);

type FuzzRequest = typeof request extends fc.Arbitrary<infer R> ? R : never;

function build(r: FuzzRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(r.headers)) if (value !== undefined) headers.set(name, value);
  if (r.cookies) headers.set("cookie", r.cookies);
  const init: RequestInit = { method: r.method, headers };
  if (r.body && r.method !== "GET" && r.method !== "HEAD") {
    const [type, text] = r.body;
    if (type) headers.set("content-type", type);
    init.body = text;
  }
  return new Request(`${ORIGIN}${r.path}${r.query}`, init);
}

describe("any request at all", () => {
  it("gets an answer below 500 and never makes Auth throw", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const req = build(r);
        const response = await Auth(req, configs[r.config]!);
        expect(response).toBeInstanceOf(Response);
        const text = await response.text();
        expect(response.status, `${response.status} for ${req.method} ${req.url}: ${text.slice(0, 200)}`).toBeLessThan(500);
        const location = response.headers.get("location");
        if (location) expect(() => new URL(location)).not.toThrow();
        for (const cookie of response.headers.getSetCookie()) expect(cookie.length).toBeLessThanOrEqual(4096);
      }),
      propertyOptions(600),
    );
  });

  it("shows the Configuration message at /error?error=Configuration with a 400: the link is no server fault", async () => {
    for (const url of [`${ORIGIN}/auth/error?error=Configuration`, `${ORIGIN}/auth/error/?error=Configuration&x=1`]) {
      const response = await Auth(new Request(url), configs[0]!);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('data-error-type="Configuration"');
    }
    const posted = await Auth(new Request(`${ORIGIN}/auth/error?error=Configuration`, { method: "POST" }), configs[0]!);
    expect(posted.status).toBe(400);
  });
});
