import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ADA_PASSWORD, ADA_USERNAME, CALLBACK_COOKIE, ORIGIN, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { propertyOptions } from "../../helpers/property.js";
import { hiddenInput, TestClient } from "../../helpers/test-client.js";

/** Callback URLs that try to leave the application, or to break it. */
const HOSTILE = [
  "https://evil.example",
  "https://evil.example/path?q=1#frag",
  "//evil.example",
  "//evil.example/auth/session",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "\t//evil.example",
  " https://evil.example",
  "/\n/evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.cookie)",
  "data:text/html,<script>alert(1)</script>",
  "http:evil.example",
  "https:/evil.example",
  "http://localhost:3000@evil.example",
  "http://localhost:3000.evil.example",
  "http://evil.example\\@localhost:3000",
  "https://localhost:3000",
  "http://localhost:3001",
  "http://[",
  "http://[::1",
  "%",
  "%E0%A4%A",
  "\u0000",
  "\u202e//evil.example",
  `https://evil.example/${"a".repeat(10_000)}`,
  `/${"a".repeat(100_000)}`,
  "x".repeat(200_000),
];

function locationOf(response: Response): URL {
  expect(response.status).toBe(302);
  const value = response.headers.get("location");
  expect(value).not.toBeNull();
  return new URL(value!);
}

function expectSameOrigin(response: Response, label: string): void {
  expect(response.status, label).toBeLessThan(500);
  expect(locationOf(response).origin, label).toBe(ORIGIN);
}

describe("a hostile callbackUrl", () => {
  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    "%s in the sign-in form body never sends the browser off the origin",
    async (_label, url) => {
      const client = new TestClient(testConfig());
      const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: url });
      expectSameOrigin(response, url);
      expect(client.cookie(SESSION_COOKIE)).toBeDefined();
    },
  );

  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    "%s in the sign-out form body never sends the browser off the origin",
    async (_label, url) => {
      const client = new TestClient(testConfig());
      await client.signIn(ADA_USERNAME, ADA_PASSWORD);
      const response = await client.signOut(url);
      expectSameOrigin(response, url);
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    },
  );

  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    "%s in the query of GET /signin is replaced by a same-origin URL in the page and in the cookie it leaves",
    async (_label, url) => {
      const client = new TestClient(testConfig());
      const page = await client.get(`/signin?callbackUrl=${encodeURIComponent(url)}`);
      expect(page.status).toBe(200);
      expect(new URL(hiddenInput(await page.text(), "callbackUrl")!).origin).toBe(ORIGIN);
      expect(new URL(client.cookie(CALLBACK_COOKIE)!).origin).toBe(ORIGIN);
      // The sign-in that follows goes where the cookie says: still home.
      expectSameOrigin(await client.signIn(ADA_USERNAME, ADA_PASSWORD), url);
    },
  );

  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    "%s in the query of GET /signout is replaced by a same-origin URL in the page",
    async (_label, url) => {
      const page = await new TestClient(testConfig()).get(`/signout?callbackUrl=${encodeURIComponent(url)}`);
      expect(page.status).toBe(200);
      expect(new URL(hiddenInput(await page.text(), "callbackUrl")!).origin).toBe(ORIGIN);
    },
  );

  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    "%s planted in the callback-url cookie is ignored by sign-in, sign-out and the sign-in page",
    async (_label, url) => {
      const client = new TestClient(testConfig());
      client.setCookie(CALLBACK_COOKIE, encodeURIComponent(url));
      expectSameOrigin(await client.signIn(ADA_USERNAME, ADA_PASSWORD), url);
      client.setCookie(CALLBACK_COOKIE, encodeURIComponent(url));
      expectSameOrigin(await client.signOut(), url);
      client.setCookie(CALLBACK_COOKIE, encodeURIComponent(url));
      const page = await client.get("/signin");
      expect(page.status).toBe(200);
      expect(new URL(hiddenInput(await page.text(), "callbackUrl")!).origin).toBe(ORIGIN);
    },
  );

  it("in the cookie, sent raw and not URL-encoded, is ignored as well", async () => {
    for (const raw of ["https://evil.example", "//evil.example", "%", "%%%", "javascript:alert(1)", '"//evil.example"']) {
      const client = new TestClient(testConfig());
      client.setCookie(CALLBACK_COOKIE, raw);
      expectSameOrigin(await client.signIn(ADA_USERNAME, ADA_PASSWORD), raw);
    }
  });

  it("given as a JSON value that is not a string is ignored", async () => {
    for (const callbackUrl of [null, 42, true, ["https://evil.example"], { href: "https://evil.example" }]) {
      const client = new TestClient(testConfig());
      const csrfToken = await client.csrf();
      const response = await client.postJson("/callback/credentials", {
        csrfToken,
        username: ADA_USERNAME,
        password: ADA_PASSWORD,
        callbackUrl,
      });
      expect(response.headers.get("location"), JSON.stringify(callbackUrl)).toBe(`${ORIGIN}/`);
    }
  });
});

describe("a friendly callbackUrl", () => {
  it("is kept: relative paths and same-origin URLs, with their query and fragment", async () => {
    for (const [url, expected] of [
      ["/dashboard", `${ORIGIN}/dashboard`],
      ["/a/b?c=d&e=f#g", `${ORIGIN}/a/b?c=d&e=f#g`],
      [`${ORIGIN}/settings`, `${ORIGIN}/settings`],
      ["/%2F%2Fevil.example", `${ORIGIN}/%2F%2Fevil.example`],
    ] as const) {
      const response = await new TestClient(testConfig()).signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: url });
      expect(response.headers.get("location"), url).toBe(expected);
    }
  });
});

describe("the redirect callback", () => {
  it("is asked with the requested URL and the origin as baseUrl, and its answer is where the browser goes", async () => {
    const redirect = vi.fn(({ url }: { url: string; baseUrl: string }) => (url.includes("partner") ? url : "/home"));
    const client = new TestClient(testConfig({ callbacks: { redirect } }));
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "https://partner.example/welcome" });
    expect(redirect).toHaveBeenCalledWith({ url: "https://partner.example/welcome", baseUrl: ORIGIN });
    expect(response.headers.get("location")).toBe("https://partner.example/welcome");
  });

  it("cannot put a non-http URL or garbage in the Location header", async () => {
    for (const answer of ["javascript:alert(1)", "http://[", "data:,x", 42 as unknown as string, undefined as unknown as string]) {
      const client = new TestClient(testConfig({ callbacks: { redirect: () => answer } }));
      const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: "/x" });
      expect(locationOf(response).href, String(answer)).toBe(`${ORIGIN}/`);
    }
  });

  it("that throws is a server fault: the Configuration error page and no session, never a 5xx", async () => {
    const config = testConfig({
      callbacks: {
        redirect: () => {
          throw new Error("bug");
        },
      },
    });
    const client = new TestClient(config);
    const response = await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
  });
});

describe("any callbackUrl at all", () => {
  const anyUrl = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc
      .tuple(
        fc.constantFrom("/", "//", "/\\", "\\", "///", "/\t/", "https://", "http://", "javascript:", "http://localhost:3000", "%", " "),
        fc.string({ maxLength: 80 }),
      )
      .map(([prefix, rest]) => prefix + rest),
  );

  it("leaves the browser on the application's origin after sign-in, from the body", async () => {
    const config = testConfig();
    await fc.assert(
      fc.asyncProperty(anyUrl, async (url) => {
        const response = await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD, { callbackUrl: url });
        expectSameOrigin(response, url);
      }),
      propertyOptions(200),
    );
  });

  it("leaves the browser on the application's origin after sign-in, from the query of the sign-in page and the cookie", async () => {
    const config = testConfig();
    await fc.assert(
      fc.asyncProperty(anyUrl, anyUrl, async (query, cookie) => {
        const client = new TestClient(config);
        client.setCookie(CALLBACK_COOKIE, encodeURIComponent(cookie));
        const page = await client.get(`/signin?callbackUrl=${encodeURIComponent(query)}`);
        expect(page.status).toBeLessThan(500);
        expectSameOrigin(await client.signIn(ADA_USERNAME, ADA_PASSWORD), `${query} / ${cookie}`);
      }),
      propertyOptions(100),
    );
  });

  it("leaves the browser on the application's origin after sign-out", async () => {
    const config = testConfig();
    await fc.assert(
      fc.asyncProperty(anyUrl, async (url) => {
        expectSameOrigin(await new TestClient(config).signOut(url), url);
      }),
      propertyOptions(200),
    );
  });
});
