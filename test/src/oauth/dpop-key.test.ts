/**
 * The DPoP key of a sign-in, without a network: sealed with the first secret and opened with any
 * (rotation), refused when tampered with or sealed elsewhere, and the proofs it signs name this
 * request's method and URL (no query or fragment) and, for a resource call, this token (`ath`).
 */
import { createHash } from "node:crypto";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, type JWK } from "jose";
import type * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { SECRET, testConfig } from "../../helpers/config.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { createDPoPKey, dpopHandle, openDPoPKey, requireBoundToken } from "../../../src/oauth/dpop.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";

const provider = { id: "bank", type: "oidc", issuer: "https://id.bank.example", clientId: "app", dpop: true } as OIDCConfig;
const as: oauth.AuthorizationServer = { issuer: "https://id.bank.example", dpop_signing_alg_values_supported: ["ES256", "EdDSA"] };
const runtime = (secret: string | string[]) => getRuntime(testConfig({ secret }));
const OLD = "an-older-secret-0123456789abcdef0123456789";

async function proofFor(key: Awaited<ReturnType<typeof openDPoPKey>>, method: string, url: string, accessToken?: string) {
  const headers = new Headers();
  const handle = dpopHandle({ client_id: "app" }, key, "server-nonce");
  await (handle as unknown as { addProof(url: URL, headers: Headers, htm: string, token?: string): Promise<void> }).addProof(new URL(url), headers, method, accessToken);
  return headers.get("dpop")!;
}

describe("a sign-in's DPoP key", () => {
  it("is sealed with the first secret, still opens after a rotation, and a tampered or foreign one is key_unavailable", async () => {
    const sealed = await createDPoPKey(runtime(OLD), provider, as);
    const opened = await openDPoPKey(runtime([SECRET, OLD]), sealed);
    expect(opened.alg).toBe("ES256");
    expect(opened.keyPair.publicKey.extractable).toBe(true);
    expect(opened.keyPair.privateKey.extractable).toBe(false);

    await expect(openDPoPKey(runtime(SECRET), sealed)).rejects.toMatchObject({ type: "DPoPError", code: "key_unavailable" });
    const [header, , iv, body, tag] = sealed.split(".");
    const flipped = `${header}..${iv}.${body!.startsWith("A") ? "B" : "A"}${body!.slice(1)}.${tag}`;
    await expect(openDPoPKey(runtime([SECRET, OLD]), flipped)).rejects.toMatchObject({ code: "key_unavailable" });
    await expect(openDPoPKey(runtime(SECRET), undefined)).rejects.toMatchObject({ code: "key_unavailable" });
  });

  it("is refused when the provider lists DPoP algorithms and the configured one is not among them", async () => {
    await expect(createDPoPKey(runtime(SECRET), { ...provider, dpop: { alg: "PS256" } }, as)).rejects.toMatchObject({
      code: "algorithm_not_supported",
    });
  });

  it("signs proofs for this request only: htm, htu without query or fragment, the server's nonce, ath of this token, a new jti", async () => {
    const key = await openDPoPKey(runtime(SECRET), await createDPoPKey(runtime(SECRET), provider, as));
    const first = await proofFor(key, "POST", "https://api.bank.example/transfers?amount=10#x", "the-access-token");
    const second = await proofFor(key, "POST", "https://api.bank.example/transfers?amount=10#x", "the-access-token");
    const header = decodeProtectedHeader(first);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256" });
    expect(header.jwk).not.toHaveProperty("d");
    expect(await calculateJwkThumbprint(header.jwk as JWK)).toBe(await calculateJwkThumbprint(await exportJWK(key.keyPair.publicKey)));
    const claims = decodeJwt(first);
    expect(claims).toMatchObject({
      htm: "POST",
      htu: "https://api.bank.example/transfers",
      nonce: "server-nonce",
      ath: createHash("sha256").update("the-access-token").digest("base64url"),
    });
    expect(decodeJwt(second).jti).not.toBe(claims.jti);
  });

  it("accepts only token_type DPoP (any case) from a request that carried a proof", () => {
    expect(() => requireBoundToken({ token_type: "DPoP" }, "bank")).not.toThrow();
    expect(() => requireBoundToken({ token_type: "dpop" }, "bank")).not.toThrow();
    for (const tokenType of ["Bearer", "bearer", undefined, 42]) {
      expect(() => requireBoundToken({ token_type: tokenType }, "bank")).toThrow(expect.objectContaining({ code: "token_type_mismatch" }));
    }
  });
});
