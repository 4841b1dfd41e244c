/**
 * What the token-refresh tests share: the test OP's public client asking for a refresh token, and a
 * JWT session cookie read and rewritten so its access token has expired.
 */
import { SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { PUBLIC_CLIENT, type TestProvider } from "../../helpers/oidc-provider.js";
import type { TestClient } from "../../helpers/test-client.js";
import { decode, encode } from "../../../src/jwt/token.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import type { JWT } from "../../../src/types.js";

/** The test OP's public client, asking for a refresh token: rotated at every use. */
export function refreshingProvider(op: TestProvider, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "oidc",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    clientId: PUBLIC_CLIENT.client_id,
    client: { token_endpoint_auth_method: "none" },
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } },
    ...overrides,
  };
}

/** The JWT the browser's session cookie holds. */
export async function tokenOf(client: TestClient): Promise<JWT> {
  const raw = client.cookie(SESSION_COOKIE);
  if (!raw) throw new Error("no session cookie");
  const token = await decode({ token: decodeURIComponent(raw), secret: SECRET, salt: SESSION_COOKIE });
  if (!token) throw new Error("the session cookie does not open");
  return token;
}

/** Rewrites the JWT session so its access token expired `ago` seconds ago (the cookie is the test's to forge). */
export async function expireJwtAccessToken(client: TestClient, ago = 5): Promise<JWT> {
  const token = await tokenOf(client);
  const aged: JWT = { ...token, account: { ...token.account!, expires_at: Math.floor(Date.now() / 1000) - ago } };
  client.setCookie(SESSION_COOKIE, encodeURIComponent(await encode({ token: aged, secret: SECRET, salt: SESSION_COOKIE })));
  return aged;
}
