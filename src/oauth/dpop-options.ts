/**
 * The `dpop` option of an OAuth/OIDC provider (RFC 9449), checked when the configuration is
 * resolved. Apart from `dpop.ts` so resolving a configuration loads no protocol library (issue 19).
 */
import { InvalidConfiguration } from "../errors.js";

/** The JWS algorithms a DPoP key can be made for (RFC 9449 §5.1 leaves the choice to the pair). */
export const DPOP_ALGORITHMS = ["ES256", "EdDSA", "PS256", "RS256"] as const;
export type DPoPAlgorithm = (typeof DPOP_ALGORITHMS)[number];

/** What a provider says about DPoP: on (`true`, or an object naming the key's algorithm), or off. */
export type DPoPOption = boolean | { alg?: DPoPAlgorithm };

interface DpopProvider {
  id: string;
  type: string;
  dpop?: unknown;
  idToken?: unknown;
  token?: unknown;
}

/** The algorithm of a provider's DPoP keys, or undefined when it does not use DPoP. */
export function dpopAlgorithmOf(provider: { dpop?: unknown }): DPoPAlgorithm | undefined {
  const option = provider.dpop;
  if (option === true) return "ES256";
  if (option && typeof option === "object") return (option as { alg?: DPoPAlgorithm }).alg ?? "ES256";
  return undefined;
}

/**
 * Refuses a `dpop` option the flows cannot honour. A DPoP-bound access token is sent only with a
 * proof, so every place the library uses it must make one: the token and refresh requests do, a
 * userinfo request does not (yet) — so DPoP is for OpenID Connect providers whose profile is the ID
 * token, with the standard code exchange.
 */
export function checkDpopOption(provider: DpopProvider): void {
  const where = `providers (${provider.id})`;
  const option = provider.dpop;
  if (option === undefined || option === false || option === true) {
    if (option === true) checkDpopUse(provider, where);
    return;
  }
  if (typeof option !== "object" || option === null) throw new InvalidConfiguration(`${where}: dpop: expected true, false or { alg }.`);
  const alg = (option as { alg?: unknown }).alg;
  if (alg !== undefined && !DPOP_ALGORITHMS.includes(alg as DPoPAlgorithm)) {
    throw new InvalidConfiguration(`${where}: dpop.alg: expected one of ${DPOP_ALGORITHMS.join(", ")}.`);
  }
  checkDpopUse(provider, where);
}

function checkDpopUse(provider: DpopProvider, where: string): void {
  if (provider.type !== "oidc") {
    throw new InvalidConfiguration(`${where}: dpop needs an OpenID Connect provider (type "oidc"): a plain OAuth 2 profile is read with the access token, which DPoP binds.`);
  }
  if (provider.idToken === false) {
    throw new InvalidConfiguration(`${where}: dpop reads the profile from the ID token; idToken: false (a userinfo request) is not supported with DPoP.`);
  }
  const token = provider.token as { request?: unknown } | undefined;
  if (token && typeof token === "object" && typeof token.request === "function") {
    throw new InvalidConfiguration(`${where}: dpop binds tokens in the standard code exchange; a provider with its own token.request cannot use it.`);
  }
}
