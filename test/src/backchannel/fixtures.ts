/**
 * What the back-channel logout tests share: an OP client registered for back-channel logout with
 * `sid` in its tokens, a database-session configuration on the memory adapter with two providers at
 * that OP (`oidc` and `oidc-b`, the same client), sign-ins through the real OP, and logout tokens
 * signed with the OP's own private keys (or forged with others), posted as the OP posts them.
 */
import { randomUUID } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { expect } from "vitest";
import { SESSION_COOKIE, type TestConfig } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, type TestClient as OpClient, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import type { AdapterSession, AuthConfig } from "../../../src/types.js";
import { BASE_URL, browser, expectSignedInAs, oauthConfig, oidcProvider, signInThroughOp, TWO_PROVIDER_CLIENT } from "../oauth/fixtures.js";

export const BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout";
export const CLIENT_ID = CONFIDENTIAL_CLIENT.client_id;

/** The confidential client, for both providers' callbacks, with `sid` in its ID and logout tokens. */
export const BACKCHANNEL_CLIENT: OpClient = {
  ...TWO_PROVIDER_CLIENT,
  backchannel_logout_uri: `${BASE_URL}/backchannel-logout/oidc`,
  backchannel_logout_session_required: true,
};

export interface Setup {
  adapter: MemoryAdapterInstance;
  config: TestConfig;
}

/**
 * Database sessions on a fresh memory adapter; `oidc` and `oidc-b` both accept back-channel logout
 * (`oidc-b` links to the user `oidc` created, by the OP-verified email).
 */
export function backchannelSetup(
  op: TestProvider,
  options: { oidc?: Partial<OIDCConfig>; oidcB?: Partial<OIDCConfig>; config?: Partial<AuthConfig>; adapter?: MemoryAdapterInstance } = {},
): Setup {
  const adapter = options.adapter ?? MemoryAdapter();
  const providers = [
    oidcProvider(op, { backchannelLogout: true, ...options.oidc }),
    oidcProvider(op, { id: "oidc-b", name: "Test OP (B)", backchannelLogout: true, allowDangerousEmailAccountLinking: true, ...options.oidcB }),
  ];
  const config = oauthConfig(providers, { adapter, session: { strategy: "database" }, ...options.config });
  return { adapter, config };
}

export interface SignedIn {
  client: TestClient;
  /** The session record the sign-in created, as the store holds it. */
  session: AdapterSession;
}

/** Signs `accountId` in through the OP (each call a fresh OP browser, so a new OP session and `sid`). */
export async function signedIn(op: TestProvider, setup: Setup, accountId = "ada", providerId = "oidc"): Promise<SignedIn> {
  const client = browser(setup.config);
  const email = String(op.accounts.get(accountId)!.email);
  await expectSignedInAs(client, await signInThroughOp(op, client, { accountId, providerId }), email);
  const found = await setup.adapter.getSessionAndUser(client.cookie(SESSION_COOKIE)!);
  expect(found?.session).toMatchObject({ provider: providerId, providerAccountId: accountId, providerSessionId: expect.any(String) });
  return { client, session: found!.session };
}

/** Whether the browser's session still works: GET /session answers its user, or null. */
export async function stillSignedIn(signed: SignedIn): Promise<boolean> {
  return (await signed.client.session()) !== null;
}

/** How many session records the store holds for these browsers. */
export async function liveSessions(setup: Setup, ...browsers: SignedIn[]): Promise<number> {
  let live = 0;
  for (const { session } of browsers) if (await setup.adapter.getSessionAndUser(session.sessionToken)) live++;
  return live;
}

export const now = (): number => Math.floor(Date.now() / 1000);

/** Claims of a valid logout token of the OP for the confidential client; `undefined` removes one. */
export function logoutClaims(op: TestProvider, claims: Record<string, unknown> = {}): Record<string, unknown> {
  const issuedAt = now();
  const all: Record<string, unknown> = {
    iss: op.issuer,
    aud: CLIENT_ID,
    iat: issuedAt,
    exp: issuedAt + 120,
    jti: randomUUID(),
    events: { [BACKCHANNEL_EVENT]: {} },
    ...claims,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  return all;
}

export interface Signing {
  /** A private JWK (default: the OP's RS256 key). */
  key?: JWK & { kid?: string; alg?: string };
  /** Header fields over the default `{ alg, kid, typ: "logout+jwt" }`; `undefined` removes one. */
  header?: Record<string, unknown>;
}

/** A logout token with `claims`, signed as `signing` says (default: genuinely, by the OP's RS256 key). */
export async function signLogoutToken(op: TestProvider, claims: Record<string, unknown>, signing: Signing = {}): Promise<string> {
  const jwk = signing.key ?? op.signingKeys[0]!;
  const alg = jwk.alg ?? "RS256";
  const header: Record<string, unknown> = { alg, kid: jwk.kid, typ: "logout+jwt", ...signing.header };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete header[name];
  const key = await importJWK(jwk, alg);
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

/** A genuine logout token of the OP for `claims` over the defaults. */
export function logoutToken(op: TestProvider, claims: Record<string, unknown> = {}, signing: Signing = {}): Promise<string> {
  return signLogoutToken(op, logoutClaims(op, claims), signing);
}

/** The OP's POST: a form with `logout_token`, no cookies, to `/backchannel-logout/:providerId`. */
export function postLogoutToken(config: TestConfig, token: string, providerId = "oidc"): Promise<Response> {
  return new TestClient(config).post(`/backchannel-logout/${providerId}`, { logout_token: token }, { withCookies: false });
}

/** The answer a refused logout gets (§2.8): 400, `invalid_request`, never cached. */
export async function expectRefused(response: Response, description?: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toContain("no-store");
  const body = (await response.json()) as { error?: string; error_description?: string };
  expect(body.error).toBe("invalid_request");
  if (description) expect(body.error_description).toMatch(description);
}

/** The answer a logout that was done gets: 200, never cached. */
export async function expectLoggedOut(response: Response): Promise<void> {
  if (response.status !== 200) expect.fail(`expected 200, got ${response.status}: ${await response.text()}`);
  expect(response.headers.get("cache-control")).toBe("no-store");
}
