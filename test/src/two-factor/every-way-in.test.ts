/**
 * No way in skips the second factor. The rows come from the route table itself (src/routes.ts): for
 * a user with an authenticator app enrolled, every row that signs people in — each `/callback/:provider`
 * row, for each kind of provider it serves — is walked with a real first factor (a password, an email
 * link, the test OpenID Provider with both response modes, as OIDC and as plain OAuth 2, a passkey
 * with `passkeyCountsAsBoth: false`) and must stop at the challenge with no session. Every other row
 * is then requested by a browser that holds only a first factor (its pending sign-in) and must not
 * turn it into a session either. A new callback row, or a new kind of provider on one, fails the
 * walk until it is given its first factor here. JWT and database sessions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import Nodemailer from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/webauthn.js";
import { ROUTES, routePath, type Route } from "../../../src/routes.js";
import type { ProviderConfig, ProviderType } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, SESSION_COOKIE, passwordProvider } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { authorizeAt, deliver, oidcProvider, plainOAuthProvider } from "../oauth/fixtures.js";
import { PasskeyClient, softAuthenticator } from "../webauthn/fixtures.js";
import { enrolledAdaWorld, enrollFactor, type EnrolledWorld } from "./enrolled-user.js";

const CHALLENGE = `${BASE_URL}/two-factor-challenge`;
/** The OP's callbacks: each provider id below, once with the query response mode and once with form_post. */
const OP_PROVIDERS = { oidc: ["oidc", "oidc-post"], oauth: ["plain", "plain-post"] } as const;

/** A row's kinds of provider (one `undefined` for a row whose path names none). */
const kindsOf = (row: Route): (ProviderType | undefined)[] => (row.providers ? [...row.providers] : [undefined]);
const nameOf = (row: Route, kind?: ProviderType): string => `${row.method} ${routePath(row)}${kind ? ` (${kind})` : ""}`;

/** Whether a response set a live session cookie. */
function setsSession(response: Response): boolean {
  return (response.headers.getSetCookie?.() ?? []).some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(line) && !line.startsWith(`${SESSION_COOKIE}=;`));
}

interface Walk {
  world: EnrolledWorld;
  config: ReturnType<EnrolledWorld["config"]>;
  op: TestProvider;
  links: string[];
}

/** The first factor of each kind of provider at `/callback/:provider`, for a user with a second factor: the callback's answer. */
type FirstFactor = (walk: Walk, browser: TestClient) => Promise<Response>;

async function throughOp(walk: Walk, browser: TestClient, providerId: string): Promise<Response> {
  return deliver(browser, await authorizeAt(walk.op, browser, { providerId, accountId: "ada" }));
}

const FIRST_FACTORS: Record<string, FirstFactor> = {
  "POST /callback/:provider (credentials)": (_walk, browser) => browser.signIn(ADA_USERNAME, ADA_PASSWORD),
  "GET /callback/:provider (email)": async (walk, browser) => {
    await browser.post("/signin/nodemailer", { csrfToken: await browser.csrf(), email: ADA.email });
    return browser.get(walk.links.at(-1)!);
  },
  "GET /callback/:provider (oidc)": (walk, browser) => throughOp(walk, browser, "oidc"),
  "POST /callback/:provider (oidc)": (walk, browser) => throughOp(walk, browser, "oidc-post"),
  "GET /callback/:provider (oauth)": (walk, browser) => throughOp(walk, browser, "plain"),
  "POST /callback/:provider (oauth)": (walk, browser) => throughOp(walk, browser, "plain-post"),
  "POST /callback/:provider (webauthn)": async (walk) => {
    // Pat registers a passkey (no second factor yet, so that signs Pat in), then enrolls an app.
    const authenticator = await softAuthenticator();
    await new PasskeyClient(walk.config).register(authenticator, "pat@example.com");
    const pat = await walk.world.adapter.getUserByEmail!("pat@example.com");
    await enrollFactor(walk.world.adapter, pat!.id, walk.world.totpSecret, []);
    const browser = new PasskeyClient(walk.config);
    const answer = await browser.authenticate(authenticator);
    // The callback's answer, with this browser's state: the caller checks both.
    Object.defineProperty(answer, "browser", { value: browser });
    return answer;
  },
};

/** The rows that sign people in: every `/callback/:provider` row, once per kind of provider. */
const signInRows = ROUTES.flatMap((row) => (row.action === "callback" ? kindsOf(row).map((kind) => nameOf(row, kind)) : []));

describe.each(["jwt", "database"] as const)("every way in, for a user with a second factor (%s sessions)", (strategy) => {
  let op: TestProvider;
  let walk: Walk;

  beforeAll(async () => {
    const callbacks = [...OP_PROVIDERS.oidc, ...OP_PROVIDERS.oauth].map((id) => `${BASE_URL}/callback/${id}`);
    op = await startTestProvider({ clients: [{ ...CONFIDENTIAL_CLIENT, redirect_uris: callbacks }] });
  });
  afterAll(() => op.close());

  beforeEach(async () => {
    const world = await enrolledAdaWorld();
    const links: string[] = [];
    const formPost = { authorization: { params: { response_mode: "form_post" } } };
    // Plain OAuth 2 at the OP: its issuer and JWKS given (its answers carry `iss`; `openid` brings an ID token).
    const plain = { ...plainOAuthProvider(op), issuer: op.issuer, jwks_endpoint: `${op.issuer}/jwks` };
    const providers: ProviderConfig[] = [
      passwordProvider(),
      Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@example.test", sendVerificationRequest: async ({ url }) => void links.push(url) }),
      oidcProvider(op),
      oidcProvider(op, { id: "oidc-post", ...formPost }),
      plain,
      { ...plain, id: "plain-post", authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email", response_mode: "form_post" } } },
      Passkey(),
    ];
    const config = world.config({
      providers,
      session: { strategy },
      experimental: { enableWebAuthn: true },
      twoFactor: { passkeyCountsAsBoth: false },
    });
    // Ada's accounts at the OP are hers already: a returning user, the common case.
    for (const provider of [...OP_PROVIDERS.oidc, ...OP_PROVIDERS.oauth]) {
      await world.adapter.linkAccount!({ userId: ADA.id, type: provider.startsWith("oidc") ? "oidc" : "oauth", provider, providerAccountId: "ada" });
    }
    walk = { world, config, op, links };
  });

  it("names a first factor for every row that signs people in, and for nothing else", () => {
    expect(signInRows.length).toBeGreaterThanOrEqual(6);
    expect(Object.keys(FIRST_FACTORS).sort()).toEqual([...signInRows].sort());
  });

  it.each(signInRows)("%s stops at the challenge: no session until the code, then the session", async (row) => {
    const walker = FIRST_FACTORS[row];
    expect(walker, `no first factor for ${row}: add one to FIRST_FACTORS`).toBeDefined();
    let browser: TestClient = new TestClient(walk.config);
    const answer = await walker!(walk, browser);
    browser = (answer as Response & { browser?: TestClient }).browser ?? browser;
    expect(answer.headers.get("location")).toBe(CHALLENGE);
    expect(setsSession(answer)).toBe(false);
    expect(await browser.session()).toBeNull();
    // The person with the code is signed in: the walk reached the real challenge, not an error.
    const passed = await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code: await walk.world.code() });
    expect(setsSession(passed)).toBe(true);
    expect(await browser.session()).not.toBeNull();
  });

  it("turns a first factor alone into no session on any other row", async () => {
    const rows = ROUTES.flatMap((row) => (row.action === "callback" ? [] : kindsOf(row).map((kind) => ({ row, kind }))));
    expect(rows.length).toBeGreaterThan(10);
    const idOf = (kind: ProviderType): string =>
      ({ credentials: "credentials", email: "nodemailer", oidc: "oidc", oauth: "plain", webauthn: "passkey" })[kind];
    for (const { row, kind } of rows) {
      const browser = new TestClient(walk.config);
      expect((await browser.signIn(ADA_USERNAME, ADA_PASSWORD)).headers.get("location")).toBe(CHALLENGE);
      const path = `/${row.action}${kind ? `/${idOf(kind)}` : ""}`;
      const answer =
        row.method === "GET"
          ? await browser.get(path)
          : await browser.post(path, { ...(row.csrf ? { csrfToken: await browser.csrf() } : {}), code: "not-a-code", data: "{}" });
      expect(setsSession(answer), nameOf(row, kind)).toBe(false);
      expect(await browser.session(), nameOf(row, kind)).toBeNull();
    }
  });
});
