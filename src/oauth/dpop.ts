/**
 * DPoP (RFC 9449) for a relying party: one key pair per sign-in, made when the code is exchanged
 * (the first use of the key), and kept with the account's tokens so a refresh and every resource
 * call prove possession of the same key. The key leaves this module only sealed: its private JWK
 * encrypted (JWE `dir` + `A256GCM`) with a key derived from the configuration's secret, so a stored
 * account row or a session cookie holds nothing that signs a proof without the secret. Rotation
 * follows the session tokens': the first secret seals, every secret opens.
 *
 * Proofs are made by oauth4webapi's DPoP handle; the nonce a server asks for (`use_dpop_nonce`) is
 * carried as data between the two attempts, so the OAuth machine can show the retry as a state.
 */
import { compactDecrypt, CompactEncrypt, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import * as oauth from "oauth4webapi";
import { bound, type Runtime } from "../config/runtime.js";
import { DPoPError, InvalidConfiguration } from "../errors.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { dpopAlgorithmOf, type DPoPAlgorithm } from "./dpop-options.js";

/** A sealed key as stored: the JWE compact serialisation of `{ alg, jwk }`. */
export type SealedDPoPKey = string;

/** The key pair of a sign-in, opened, with the algorithm its proofs are signed with. */
export interface DPoPKey {
  alg: DPoPAlgorithm;
  keyPair: CryptoKeyPair;
}

/** What a token request sends with DPoP: the sealed key, and the nonce the server asked for when it did. */
export interface DPoPRequest {
  key: SealedDPoPKey;
  nonce?: string;
}

const encoder = new TextEncoder();
const SALT = "appauth.dpop-key";
const INFO = "appauth DPoP key sealing, A256GCM";

async function deriveSealingKey(secret: string): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(SALT), info: encoder.encode(INFO) },
    ikm,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

interface Sealer {
  seal(key: DPoPKey): Promise<SealedDPoPKey>;
  open(sealed: SealedDPoPKey): Promise<DPoPKey>;
}

/** The sealer of a runtime: its keys derived once, from the runtime's secrets. */
function makeSealer(rt: Runtime): Sealer {
  const keys = rt.secrets.map((secret) => deriveSealingKey(secret));
  return {
    async seal({ alg, keyPair }) {
      const jwk = await exportJWK(keyPair.privateKey);
      const plaintext = encoder.encode(JSON.stringify({ alg, jwk }));
      return new CompactEncrypt(plaintext).setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: "dpop-key" }).encrypt(await keys[0]!);
    },
    async open(sealed) {
      for (const pending of keys) {
        let opened: Uint8Array;
        try {
          ({ plaintext: opened } = await compactDecrypt(sealed, await pending, { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] }));
        } catch {
          continue;
        }
        const { alg, jwk } = JSON.parse(new TextDecoder().decode(opened)) as { alg: DPoPAlgorithm; jwk: JWK };
        return { alg, keyPair: await keyPairOf(alg, jwk) };
      }
      throw new DPoPError("key_unavailable", "The DPoP key of the account could not be opened with any configured secret.");
    },
  };
}

/** A key pair from a private JWK: the private key signs; the public one (extractable) goes in each proof's header. */
async function keyPairOf(alg: DPoPAlgorithm, jwk: JWK): Promise<CryptoKeyPair> {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
  const [privateKey, publicKey] = await Promise.all([
    importJWK(jwk, alg, { extractable: false }),
    importJWK(publicJwk, alg, { extractable: true }),
  ]);
  return { privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey };
}

const sealerOf = (rt: Runtime): Sealer => bound(rt, makeSealer);

/** Seals `key` with the runtime's first secret. */
export function sealDPoPKey(rt: Runtime, key: DPoPKey): Promise<SealedDPoPKey> {
  return sealerOf(rt).seal(key);
}

/** Opens a sealed key with any of the runtime's secrets; a `DPoPError` (`key_unavailable`) when none opens it. */
export function openDPoPKey(rt: Runtime, sealed: unknown): Promise<DPoPKey> {
  if (typeof sealed !== "string" || sealed.length === 0) {
    return Promise.reject(new DPoPError("key_unavailable", "The account's token is DPoP-bound, but no DPoP key is stored with it."));
  }
  return sealerOf(rt).open(sealed);
}

/**
 * A fresh key pair for one sign-in of `provider`, sealed. Its algorithm is the provider's (`dpop.alg`,
 * default ES256), held to the server's `dpop_signing_alg_values_supported` when it lists them.
 */
export async function createDPoPKey(rt: Runtime, provider: OAuthProviderConfig, as: oauth.AuthorizationServer): Promise<SealedDPoPKey> {
  const alg = dpopAlgorithmOf(provider);
  if (!alg) throw new InvalidConfiguration(`providers (${provider.id}): DPoP is not configured.`);
  const supported = as.dpop_signing_alg_values_supported;
  if (Array.isArray(supported) && supported.length && !supported.includes(alg)) {
    throw new DPoPError(
      "algorithm_not_supported",
      `providers (${provider.id}): dpop.alg ${alg} is not among the provider's dpop_signing_alg_values_supported (${supported.join(", ")}).`,
    );
  }
  const keyPair = (await generateKeyPair(alg, { extractable: true })) as CryptoKeyPair;
  return sealDPoPKey(rt, { alg, keyPair });
}

/**
 * The oauth4webapi handle that signs proofs with `key`. A `nonce` the server asked for in an earlier
 * answer goes into the first proof (the handle learns later ones from the answers it sees).
 */
export function dpopHandle(client: oauth.Client, key: DPoPKey, nonce?: string): oauth.DPoPHandle {
  if (nonce === undefined) return oauth.DPoP(client, key.keyPair);
  return oauth.DPoP(client, key.keyPair, {
    [oauth.modifyAssertion]: (_header, payload) => {
      payload.nonce ??= nonce;
    },
  });
}

/** The nonce a refused request asked for (`use_dpop_nonce`), or undefined when it was refused for anything else. */
export function askedNonce(error: unknown, response: Response): string | undefined {
  if (!oauth.isDPoPNonceError(error)) return undefined;
  return response.headers.get("dpop-nonce") ?? "";
}

/**
 * RFC 9449 §5: a token request made with a proof must be answered with `token_type: DPoP`. A server
 * that answers `Bearer` did not bind the token to our key (it may ignore DPoP altogether): such a
 * token would be usable by whoever holds it, which is exactly what the provider asked us to prevent.
 */
export function requireBoundToken(tokens: { token_type?: unknown }, providerId: string): void {
  const type = typeof tokens.token_type === "string" ? tokens.token_type.toLowerCase() : undefined;
  if (type !== "dpop") {
    throw new DPoPError("token_type_mismatch", `${providerId} answered a DPoP token request with token_type ${JSON.stringify(tokens.token_type)}, not DPoP.`);
  }
}

/**
 * A token request made with a proof of `dpop`'s key: the request is `send(handle)`, its answer
 * checked by `check(response)`. The first `use_dpop_nonce` refusal is returned as `{ nonce }` (the
 * caller retries with it, once); a second one, or one that names no nonce, is a `DPoPError`.
 */
export async function dpopTokenRequest<T extends { token_type?: unknown }>(
  rt: Runtime,
  providerId: string,
  options: { client: oauth.Client; dpop: DPoPRequest },
  send: (handle: oauth.DPoPHandle) => Promise<Response>,
  check: (response: Response) => Promise<T>,
): Promise<{ result: T } | { nonce: string }> {
  const key = await openDPoPKey(rt, options.dpop.key);
  const response = await send(dpopHandle(options.client, key, options.dpop.nonce));
  let result: T;
  try {
    result = await check(response);
  } catch (error) {
    const nonce = askedNonce(error, response);
    if (nonce === undefined) throw error;
    if (options.dpop.nonce !== undefined || nonce === "") {
      const why = nonce === "" ? "named none in a DPoP-Nonce header" : "asked again after the retry with the one it gave";
      throw new DPoPError("use_dpop_nonce", `${providerId} asked for a DPoP nonce and ${why}.`, { cause: error });
    }
    return { nonce };
  }
  requireBoundToken(result, providerId);
  return { result };
}
