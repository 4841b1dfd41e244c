/**
 * Every route that takes a callback URL reads it one way (`requestedCallbackUrl`, Auth.js's order):
 * the form's field, else the query's, else the cookie the sign-in page remembered, else the origin.
 * Each route is asked with the URL in all three places, then in fewer, and must follow that order.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { Email } from "../../../src/providers/email.js";
import type { OAuthProviderConfig } from "../../../src/providers/oauth-types.js";
import type { AuthConfig } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, CALLBACK_COOKIE, ORIGIN, testConfig } from "../../helpers/config.js";
import { hiddenInput, TestClient } from "../../helpers/test-client.js";

/** Where the URL is put, and what each place says. */
interface Placed {
  form?: string;
  query?: string;
  cookie?: string;
}

/** An OAuth provider whose endpoints are named: starting a sign-in needs no network. */
const acme: OAuthProviderConfig = {
  id: "acme",
  name: "Acme",
  type: "oauth",
  clientId: "client",
  clientSecret: "secret",
  authorization: { url: "https://idp.example/authorize", params: { scope: "profile" } },
  token: "https://idp.example/token",
  userinfo: "https://idp.example/userinfo",
};

/** A route, and how to read where it decided the browser should go afterwards. */
interface Route {
  name: string;
  method: "GET" | "POST";
  path: string;
  config?: () => Partial<AuthConfig> & { mailed?: string[] };
  /** The form fields besides `csrfToken` and `callbackUrl`. */
  fields?: Record<string, string>;
  judged: (response: Response, client: TestClient, mailed: string[]) => Promise<string | undefined>;
}

const location = async (response: Response): Promise<string | undefined> => response.headers.get("location") ?? undefined;
const rememberedCookie = async (_: Response, client: TestClient): Promise<string | undefined> => client.cookie(CALLBACK_COOKIE);

const routes: Route[] = [
  {
    name: "the credentials sign-in (POST /callback/credentials)",
    method: "POST",
    path: "/callback/credentials",
    fields: { username: ADA_USERNAME, password: ADA_PASSWORD },
    judged: location,
  },
  {
    name: "the email sign-in (POST /signin/email): the mailed link carries it",
    method: "POST",
    path: "/signin/email",
    fields: { email: "ada@example.com" },
    config: () => {
      const mailed: string[] = [];
      return {
        mailed,
        adapter: MemoryAdapter(),
        providers: [
          Email({
            sendVerificationRequest: async ({ url }) => {
              mailed.push(url);
            },
          }),
        ],
      };
    },
    judged: async (_response, _client, mailed) => new URL(mailed.at(-1)!).searchParams.get("callbackUrl") ?? undefined,
  },
  {
    name: "the OAuth sign-in (POST /signin/acme): the flow cookie remembers it",
    method: "POST",
    path: "/signin/acme",
    config: () => ({ providers: [acme] }),
    judged: rememberedCookie,
  },
  { name: "the sign-out (POST /signout)", method: "POST", path: "/signout", judged: location },
  { name: "the sign-in page (GET /signin)", method: "GET", path: "/signin", judged: rememberedCookie },
  {
    name: "the sign-out page (GET /signout)",
    method: "GET",
    path: "/signout",
    judged: async (response) => hiddenInput(await response.text(), "callbackUrl"),
  },
];

/** The URL in each place, then fewer places: the first place still holding one must win. */
const placements: Array<{ placed: Placed; wins: string }> = [
  { placed: { form: "/from-form", query: "/from-query", cookie: "/from-cookie" }, wins: "/from-form" },
  { placed: { query: "/from-query", cookie: "/from-cookie" }, wins: "/from-query" },
  { placed: { form: "", query: "/from-query", cookie: "/from-cookie" }, wins: "/from-query" },
  { placed: { cookie: "/from-cookie" }, wins: "/from-cookie" },
  { placed: {}, wins: "" },
];

async function ask(route: Route, placed: Placed): Promise<string | undefined> {
  const { mailed = [], ...overrides } = route.config?.() ?? {};
  const client = new TestClient(testConfig(overrides));
  const csrfToken = route.method === "POST" ? await client.csrf() : undefined;
  const held = client.cookieHeader();
  const cookie = [held, placed.cookie !== undefined ? `${CALLBACK_COOKIE}=${placed.cookie}` : undefined].filter(Boolean).join("; ");
  const path = placed.query !== undefined ? `${route.path}?${new URLSearchParams({ callbackUrl: placed.query })}` : route.path;
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const response =
    route.method === "POST"
      ? await client.post(
          path,
          { csrfToken: csrfToken!, ...route.fields, ...(placed.form !== undefined ? { callbackUrl: placed.form } : {}) },
          { headers },
        )
      : await client.get(path, { headers });
  expect(response.status, await response.clone().text()).toBeLessThan(400);
  return route.judged(response, client, mailed);
}

describe("the requested callback URL", () => {
  for (const route of routes) {
    for (const { placed, wins } of placements) {
      if (route.method === "GET" && placed.form) continue;
      const where =
        (Object.keys(placed) as Array<keyof Placed>).map((key) => (placed[key] ? key : `${key} (empty)`)).join(", ") || "nowhere";
      it(`${route.name}, asked in the ${where}, goes to ${wins || "the origin"}`, async () => {
        expect(await ask(route, placed)).toBe(new URL(wins || "/", ORIGIN).href);
      });
    }
  }

  it("is read by src/redirect.ts alone: no other module reads the form field, query parameter or cookie", () => {
    const readers: string[] = [];
    const src = join(import.meta.dirname, "../../../src");
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts") && !path.endsWith(join("src", "redirect.ts"))) {
          for (const [i, line] of readFileSync(path, "utf8").split("\n").entries()) {
            if (/body\.callbackUrl|\.get\("callbackUrl"\)|jar\.get\([^)]*callbackUrl\.name\)/.test(line)) readers.push(`${path}:${i + 1}`);
          }
        }
      }
    };
    walk(src);
    expect(readers).toEqual([]);
  });
});
