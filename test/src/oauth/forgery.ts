/**
 * Altered ID tokens for the rejection tests: the provider's `[customFetch]` passes every request to
 * the real OP and rewrites only the token endpoint's answer, re-signing its ID token after an edit.
 * Re-signed with the OP's own key (from `op.signingKeys`) the signature is genuine, so only the
 * edited claim can be why a sign-in is refused; signed with an unrelated key, only the signature is.
 */
import { decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";
import type { TestProvider } from "../../helpers/oidc-provider.js";
import type { ProviderFetch } from "../../../src/providers/oauth-types.js";

export type ClaimsEdit = (claims: JWTPayload) => JWTPayload;

type SigningKeyChoice = "op" | "unrelated";

async function signingKeyFor(op: TestProvider, kid: string | undefined, alg: string, choice: SigningKeyChoice): Promise<CryptoKey> {
  if (choice === "unrelated") return (await generateKeyPair(alg, { extractable: false })).privateKey;
  const jwk = op.signingKeys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`the OP has no signing key ${kid}`);
  return (await importJWK(jwk, alg)) as CryptoKey;
}

/** Re-signs `idToken` after `edit`, keeping its header (alg, kid), with the OP's key or an unrelated one. */
export async function resignIdToken(op: TestProvider, idToken: string, edit: ClaimsEdit, choice: SigningKeyChoice = "op"): Promise<string> {
  const header = decodeProtectedHeader(idToken);
  const alg = header.alg ?? "RS256";
  const key = await signingKeyFor(op, header.kid, alg, choice);
  return new SignJWT(edit({ ...decodeJwt(idToken) }))
    .setProtectedHeader({ ...header, alg })
    .sign(key);
}

/**
 * A `fetch` for the provider that hands every call to the real one and replaces the ID token of
 * the token endpoint's answer with an edited, re-signed one. `seen` counts the tokens it rewrote.
 */
export function idTokenRewriter(
  op: TestProvider,
  edit: ClaimsEdit,
  choice: SigningKeyChoice = "op",
  realFetch: typeof fetch = globalThis.fetch,
): ProviderFetch & { rewritten: number } {
  const rewriter = Object.assign(
    async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const response = await realFetch(request);
      if (request.url !== `${op.issuer}/token` || !response.ok) return response;
      const body = (await response.json()) as Record<string, unknown>;
      if (typeof body.id_token === "string") {
        body.id_token = await resignIdToken(op, body.id_token, edit, choice);
        rewriter.rewritten++;
      }
      return new Response(JSON.stringify(body), {
        status: response.status,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      });
    },
    { rewritten: 0 },
  );
  return rewriter;
}
