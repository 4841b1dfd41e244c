/**
 * What the OAuth/OIDC tests share: a provider pointed at the test OP, the browser's round trip
 * (POST /signin/:id → the OP → the callback), and the few assertions every test makes about
 * whether a session came out of it. The OP is real (`test/helpers/oidc-provider.ts`); nothing here fakes it.
 */
import { expect } from "vitest";
import { BASE_URL, SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import {
  CONFIDENTIAL_CLIENT,
  type AuthorizationOutcome,
  type TestClient as OpClient,
  type TestProvider,
} from "../../helpers/oidc-provider.js";
import { isDeletion, setCookieNamed, setCookiesOf } from "../../helpers/set-cookie.js";
import { TestClient } from "../../helpers/test-client.js";
import type { OIDCConfig, OAuthProviderConfig, ProviderFetch } from "../../../src/providers/oauth-types.js";
import type { AuthConfig } from "../../../src/types.js";

export { BASE_URL };

/** The flow's check cookies (not the callback-url cookie, which only says where to go afterwards). */
export const CHECK_COOKIES = {
  pkce: "appauth.pkce.code_verifier",
  state: "appauth.state",
  nonce: "appauth.nonce",
} as const;

const ALL_CHECKS: OIDCConfig["checks"] = ["pkce", "state", "nonce"];

/** Where the OAuth sign-in errors land: the built-in sign-in page, with the type. */
export const CALLBACK_ERROR = `${BASE_URL}/signin?error=OAuthCallbackError`;

/** A confidential client registered for the callbacks of both `oidc` and `oidc-b`. */
export const TWO_PROVIDER_CLIENT: OpClient = {
  ...CONFIDENTIAL_CLIENT,
  redirect_uris: [`${BASE_URL}/callback/oidc`, `${BASE_URL}/callback/oidc-b`],
};

/** An `oidc` provider at the test OP, as the confidential client, with every check on unless overridden. */
export function oidcProvider(op: TestProvider, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "oidc",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: CONFIDENTIAL_CLIENT.client_id,
    clientSecret: CONFIDENTIAL_CLIENT.client_secret!,
    checks: ALL_CHECKS,
    ...overrides,
  };
}

/** A plain OAuth 2 provider (`plain`) at the test OP: endpoints given, no discovery, no ID token checks. */
export function plainOAuthProvider(op: TestProvider): OAuthProviderConfig {
  return {
    id: "plain",
    name: "Plain OAuth",
    type: "oauth",
    clientId: CONFIDENTIAL_CLIENT.client_id,
    clientSecret: CONFIDENTIAL_CLIENT.client_secret!,
    authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email" } },
    token: `${op.issuer}/token`,
    userinfo: `${op.issuer}/me`,
  };
}

/** A test configuration (recording logger, trusted host) whose only providers are `providers`. */
export function oauthConfig(providers: OAuthProviderConfig[], overrides: Partial<AuthConfig> = {}): TestConfig {
  return testConfig({ providers, ...overrides });
}

/** POST /signin/:providerId with the CSRF token, as the sign-in page's button does; the 302 to the OP. */
export async function startSignIn(client: TestClient, providerId = "oidc", callbackUrl = "/after"): Promise<Response> {
  const csrfToken = await client.csrf();
  return client.post(`/signin/${providerId}`, { csrfToken, callbackUrl });
}

/** The authorization URL the RP sent the browser to (the Location of the sign-in response). */
export function locationOf(response: Response): string {
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) {
    throw new Error(`expected a 302 with a Location, got ${response.status} ${location ?? ""}`);
  }
  return location;
}

/** Starts a sign-in and lets `accountId` log in and consent at the OP; where the OP sends the browser back. */
export async function authorizeAt(
  op: TestProvider,
  client: TestClient,
  options: { providerId?: string; accountId?: string; deny?: boolean; callbackUrl?: string } = {},
): Promise<AuthorizationOutcome> {
  const signIn = await startSignIn(client, options.providerId, options.callbackUrl);
  return op.authorize(locationOf(signIn), {
    accountId: options.accountId ?? "ada",
    ...(options.deny ? { deny: true } : {}),
  });
}

/** Delivers the OP's answer to the RP, as the browser would: follows the redirect, or submits the form_post form. */
export function deliver(client: TestClient, outcome: AuthorizationOutcome, headers?: Record<string, string>): Promise<Response> {
  const options = headers ? { headers } : {};
  if (outcome.method === "POST") return client.post(outcome.url, outcome.form, options);
  return client.get(outcome.url, options);
}

/** The whole round trip: sign-in button, the OP, the callback. Returns the callback's response. */
export async function signInThroughOp(
  op: TestProvider,
  client: TestClient,
  options: { providerId?: string; accountId?: string; callbackUrl?: string } = {},
): Promise<Response> {
  return deliver(client, await authorizeAt(op, client, options));
}

/** The response set a live session cookie. */
export function setsSession(response: Response): boolean {
  const cookie = setCookieNamed(response, SESSION_COOKIE);
  return cookie !== undefined && !isDeletion(cookie);
}

/** The callback created no session: no session cookie in the response, and /session says null. */
export async function expectNoSession(client: TestClient, response: Response): Promise<void> {
  expect(setsSession(response)).toBe(false);
  expect(await client.session()).toBeNull();
}

/** The callback signed the browser in as `email`. */
export async function expectSignedInAs(client: TestClient, response: Response, email: string): Promise<void> {
  expect(setsSession(response)).toBe(true);
  expect(await client.session()).toMatchObject({ user: { email } });
}

/** The names of the check cookies the response expires (`Max-Age=0`). */
export function clearedCheckCookies(response: Response): string[] {
  const checks = new Set<string>(Object.values(CHECK_COOKIES));
  return setCookiesOf(response)
    .filter((cookie) => checks.has(cookie.name) && isDeletion(cookie))
    .map((cookie) => cookie.name)
    .sort();
}

/** A `fetch` that records every URL it is asked for, then does the real request. */
export function recordingFetch(realFetch: typeof fetch = globalThis.fetch): ProviderFetch & { urls: string[]; requests: Request[] } {
  const urls: string[] = [];
  const requests: Request[] = [];
  const recorder = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    urls.push(request.url);
    requests.push(request.clone());
    return realFetch(request);
  };
  return Object.assign(recorder, { urls, requests });
}

/**
 * A `fetch` that does the real request (or `realFetch`'s) and counts the answers the provider's JWKS
 * endpoint gave: how often the provider was made to serve its keys.
 */
export function jwksCountingFetch(jwksUri: string, realFetch: ProviderFetch = (input, init) => fetch(input, init)): ProviderFetch & { jwksAnswers: number } {
  const counter = Object.assign(
    async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const response = await realFetch(request);
      if (request.url === jwksUri) counter.jwksAnswers++;
      return response;
    },
    { jwksAnswers: 0 },
  );
  return counter;
}

/** The OP's discovery document, read once by a test that needs explicit endpoints. */
interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  [key: string]: unknown;
}

export async function discover(op: TestProvider): Promise<Discovery> {
  const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
  return (await response.json()) as Discovery;
}

/** A fresh browser for `config`, on the default origin. */
export function browser(config: TestConfig, baseUrl = BASE_URL): TestClient {
  return new TestClient(config, baseUrl);
}

/** A real, unused callback: the OP's answer and the cookies the browser holds when it arrives. */
export interface CallbackInHand {
  url: string;
  cookies: Map<string, string>;
}

/** Starts a sign-in and goes through the OP, stopping just before the browser returns to the callback. */
export async function callbackInHand(
  op: TestProvider,
  client: TestClient,
  options: { providerId?: string; accountId?: string } = {},
): Promise<CallbackInHand> {
  const outcome = await authorizeAt(op, client, options);
  if (outcome.method !== "GET") throw new Error("callbackInHand expects a query-mode callback");
  const cookies = new Map<string, string>();
  for (const pair of (client.cookieHeader() ?? "").split("; ").filter(Boolean)) {
    const eq = pair.indexOf("=");
    cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return { url: outcome.url, cookies };
}

/** A `Cookie` header made of `cookies` (raw values, as received). */
export function cookieHeaderOf(cookies: Map<string, string>): string {
  return [...cookies].map(([name, raw]) => `${name}=${raw}`).join("; ");
}

/** An error and its causes as text, with the OAuth `error` code of any (oauth4webapi keeps the OP's there). */
function explain(value: unknown, depth = 0): string {
  if (!(value instanceof Error) || depth > 4) return String(value);
  const parts = [value.message];
  const code = (value as { error?: unknown }).error;
  if (typeof code === "string") parts.push(`error=${code}`);
  const cause = (value as { cause?: unknown }).cause;
  const inner = cause && typeof cause === "object" && "err" in cause ? (cause as { err: unknown }).err : cause;
  if (inner !== undefined) parts.push(`cause: ${explain(inner, depth + 1)}`);
  return parts.join(" | ");
}

/** What the server logged at error level, one line per entry: the code, the error and its causes. */
export function loggedErrors(config: TestConfig): string {
  return config.logger.entries
    .filter((entry) => entry.level === "error")
    .map((entry) => `${entry.code}: ${entry.message.map((m) => explain(m)).join(" ")}`)
    .join("\n");
}
