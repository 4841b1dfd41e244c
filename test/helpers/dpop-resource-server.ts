/**
 * A small resource server on loopback that accepts only DPoP-bound access tokens (RFC 9449 §7),
 * checked the way a real one checks them: the token through the test OP's introspection (active,
 * `cnf.jkt`), the proof with jose (typ `dpop+jwt`, signature by the key in its header, `htm`,
 * `htu`, `ath`, a recent `iat`, a `jti` never seen before, the server's nonce when it asks for one),
 * and the proof's key thumbprint against the token's `cnf.jkt`. Test code, not a library.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from "jose";
import { authenticateClient, type TestClient, type TestProvider } from "./oidc-provider.js";

export interface ResourceServerOptions {
  op: TestProvider;
  /** The client the resource server introspects tokens as. */
  introspector: TestClient;
  /** Ask every proof for the server's nonce (`use_dpop_nonce` until it carries it). */
  nonces?: boolean;
}

export interface ResourceServer {
  /** e.g. `http://127.0.0.1:PORT`; the resource is `${url}/accounts`. */
  url: string;
  /** Why each refused request was refused, in order (`invalid_token`, `invalid_dpop_proof: …`, `use_dpop_nonce`). */
  refusals: string[];
  /** The proofs' `jti`s, as accepted. */
  acceptedJtis: string[];
  close(): Promise<void>;
}

const b64u = (bytes: Buffer) => bytes.toString("base64url");

export async function startResourceServer(options: ResourceServerOptions): Promise<ResourceServer> {
  const refusals: string[] = [];
  const acceptedJtis: string[] = [];
  const seen = new Set<string>();
  const nonce = randomUUID();

  const refuse = (res: ServerResponse, error: string, description: string, extra: Record<string, string> = {}) => {
    refusals.push(error === "invalid_dpop_proof" ? `${error}: ${description}` : error);
    res.writeHead(401, {
      "www-authenticate": `DPoP error="${error}", error_description="${description}", algs="ES256 EdDSA PS256 RS256"`,
      "content-type": "application/json",
      ...extra,
    });
    res.end(JSON.stringify({ error, error_description: description }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const authorization = req.headers.authorization ?? "";
    const [scheme, token] = authorization.split(" ");
    if (scheme?.toLowerCase() !== "dpop" || !token) return refuse(res, "invalid_token", "a DPoP-bound token is required");
    const proof = req.headers.dpop;
    if (typeof proof !== "string") return refuse(res, "invalid_dpop_proof", "no proof");
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256", "EdDSA", "PS256", "RS256"] }));
    } catch (error) {
      return refuse(res, "invalid_dpop_proof", `signature: ${(error as Error).message}`);
    }
    const path = new URL(req.url ?? "/", url);
    if (payload.htm !== req.method) return refuse(res, "invalid_dpop_proof", "htm");
    if (payload.htu !== `${url}${path.pathname}`) return refuse(res, "invalid_dpop_proof", "htu");
    if (payload.ath !== b64u(createHash("sha256").update(token).digest())) return refuse(res, "invalid_dpop_proof", "ath");
    if (typeof payload.iat !== "number" || Math.abs(Date.now() / 1000 - payload.iat) > 60) return refuse(res, "invalid_dpop_proof", "iat");
    if (typeof payload.jti !== "string" || seen.has(payload.jti)) return refuse(res, "invalid_dpop_proof", "replayed jti");
    seen.add(payload.jti);
    if (options.nonces && payload.nonce !== nonce) return refuse(res, "use_dpop_nonce", "nonce required", { "dpop-nonce": nonce });

    const introspected = await introspect(options, token);
    if (introspected.active !== true) return refuse(res, "invalid_token", "inactive");
    const jkt = await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK);
    if ((introspected.cnf as { jkt?: unknown } | undefined)?.jkt !== jkt) return refuse(res, "invalid_token", "the token is not bound to the proof's key");
    acceptedJtis.push(payload.jti);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ sub: introspected.sub, jkt, method: req.method }));
  }

  let base = "";
  const server = createServer((req, res) => {
    handle(req, res, base).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    refusals,
    acceptedJtis,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The OP's introspection answer for `token` (RFC 7662), as the configured client. */
export async function introspect(options: Pick<ResourceServerOptions, "op" | "introspector">, token: string): Promise<Record<string, unknown>> {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  const body = new URLSearchParams({ token });
  authenticateClient(options.introspector, headers, body);
  const response = await fetch(`${options.op.issuer}/token/introspection`, { method: "POST", headers, body });
  return (await response.json()) as Record<string, unknown>;
}
