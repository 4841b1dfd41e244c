/**
 * What the DPoP tests share: a provider at the test OP with `dpop: true` (the public client, asking
 * for a refresh token), the key a sign-in's tokens are bound to, and the thumbprint the OP bound them to.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calculateJwkThumbprint, compactDecrypt, type JWK } from "jose";
import { SECRET } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { introspect, startResourceServer, type ResourceServer } from "../../helpers/dpop-resource-server.js";
import type { TestClient } from "../../helpers/test-client.js";
import { sqliteAdapter } from "../../../src/adapters/sqlite/index.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import { refreshingProvider } from "../refresh/fixtures.js";

/** The public client with a refresh token (`offline_access`), its tokens bound with DPoP. */
export function dpopProvider(op: TestProvider, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return refreshingProvider(op, { dpop: true, ...overrides });
}

/** The thumbprint (RFC 7638) of the public key sealed in an account's `dpop_jwk`, opened as the library would with `secret`. */
export async function thumbprintOfSealed(sealed: string, secret = SECRET): Promise<string> {
  const encoder = new TextEncoder();
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("appauth.dpop-key"), info: encoder.encode("appauth DPoP key sealing, A256GCM") },
    ikm,
    { name: "AES-GCM", length: 256 },
    false,
    ["decrypt"],
  );
  const { plaintext } = await compactDecrypt(sealed, key);
  const { jwk } = JSON.parse(new TextDecoder().decode(plaintext)) as { jwk: JWK };
  return calculateJwkThumbprint(jwk);
}

/** The `cnf.jkt` the OP bound an access token to (undefined for a bearer token), and whether it is active. */
export async function boundTo(op: TestProvider, accessToken: string): Promise<{ active: boolean; jkt?: string; tokenType?: unknown }> {
  const answer = await introspect({ op, introspector: CONFIDENTIAL_CLIENT }, accessToken);
  const jkt = (answer.cnf as { jkt?: string } | undefined)?.jkt;
  return { active: answer.active === true, ...(jkt ? { jkt } : {}), tokenType: answer.token_type };
}

/** A migrated SQLite adapter on a fresh file (the account row's `dpop_jwk` column is migration 0004's). */
export async function sqliteStore() {
  const dir = await mkdtemp(join(tmpdir(), "appauth-dpop-"));
  const adapter = sqliteAdapter(join(dir, "auth.db"));
  await adapter.migrate();
  return adapter;
}

/** The test OP with DPoP and nonces, and a resource server that asks for nonces too; `close()` stops both. */
export async function startDpopWorld(): Promise<{ op: TestProvider; rs: ResourceServer; close(): Promise<void> }> {
  const op = await startTestProvider({ features: { dpop: { nonces: true } } });
  const rs = await startResourceServer({ op, introspector: CONFIDENTIAL_CLIENT, nonces: true });
  return {
    op,
    rs,
    async close() {
      await rs.close();
      await op.close();
    },
  };
}

/** The browser's request to the application, as a server route would receive it. */
export function appRequest(client: TestClient): Request {
  const cookie = client.cookieHeader();
  return new Request(client.url("/anything"), cookie ? { headers: { cookie } } : {});
}
