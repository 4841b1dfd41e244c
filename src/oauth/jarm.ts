/**
 * JWT-secured authorization responses (JARM): with `response_mode` `jwt`, `query.jwt` or
 * `form_post.jwt`, the provider's answer is one `response` JWT. Its signature (the provider's
 * published keys), `iss`, `aud` (this client) and `exp` are checked before any parameter in it is
 * used; an answer without it — a plain `code` in the query — is refused, so nobody can downgrade.
 */
import * as oauth from "oauth4webapi";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import { clientOf, httpOptions } from "./client.js";

export { usesJarm } from "./fapi-profile.js";

/** Whether the answer comes back as a form the browser POSTs (`form_post`, `form_post.jwt`): the flow cookies must then cross sites. */
export function isFormPostMode(mode: string | undefined): boolean {
  return mode === "form_post" || mode === "form_post.jwt";
}

/** The parameters of a JARM answer, once its JWT passed every check (then `state` and `iss` as any answer). */
export function validateJarmAnswer(
  provider: OAuthProviderConfig,
  as: oauth.AuthorizationServer,
  answer: URLSearchParams,
  expectedState: string | typeof oauth.skipStateCheck,
): Promise<URLSearchParams> {
  return oauth.validateJwtAuthResponse(as, clientOf(provider), answer, expectedState, httpOptions(provider, as.jwks_uri));
}
