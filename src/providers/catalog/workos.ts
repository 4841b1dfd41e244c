/**
 * Sign in with WorkOS AuthKit (hosted sign-in for SSO, social and password users): OAuth 2.
 *
 * - Authorization at `https://api.workos.com/user_management/authorize` with `provider=authkit`
 *   (or replace it with `connection_id` / `organization_id` / a social `provider` such as
 *   `GoogleOAuth` in `authorization.params`).
 * - The code is exchanged at `POST https://api.workos.com/user_management/authenticate`, which takes
 *   JSON (`client_id`, `client_secret`, `grant_type`, `code`, `code_verifier`) and answers with the
 *   tokens and the `user` at once: `token.request` makes that call, `userinfo.request` returns that
 *   `user` without another request. PKCE is supported; a public client may omit the secret.
 *
 * @see https://workos.com/docs/reference/authkit/authentication/get-authorization-url
 * @see https://workos.com/docs/reference/authkit/authentication/code
 */
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { workosLogo } from "../logos/workos.js";
import { endpointUrl, fetchJson, httpsUrl, idOf, joinName, record, text, withUserOptions, type TokenContext } from "./shared.js";

/** A WorkOS user (the `user` of the authenticate answer). */
export interface WorkOSProfile extends Profile {
  object?: "user";
  id: string;
  email?: string;
  email_verified?: boolean;
  first_name?: string | null;
  last_name?: string | null;
  profile_picture_url?: string | null;
  last_sign_in_at?: string | null;
  external_id?: string | null;
  created_at?: string;
  updated_at?: string;
}

async function workosToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { provider, params, codeVerifier } = context;
  const code = params.get("code");
  if (!code) throw new TypeError("workos: the callback carries no authorization code.");
  if (!provider.clientId) throw new TypeError("workos: clientId is required (AUTH_WORKOS_ID).");
  const url = endpointUrl(provider.token) ?? "https://api.workos.com/user_management/authenticate";
  const body = await fetchJson(context.fetch, url, {
    provider: "workos",
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({
      client_id: provider.clientId,
      ...(provider.clientSecret ? { client_secret: provider.clientSecret } : {}),
      grant_type: "authorization_code",
      code,
      ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    }),
  });
  const tokens = record(body) as TokenSet;
  if (typeof tokens.access_token !== "string") throw new Error("workos: the authenticate response has no access_token.");
  return { tokens: { token_type: "bearer", ...tokens } };
}

/** The `user` the authenticate answer carried (no request: WorkOS has no separate userinfo call). */
function workosUser({ tokens }: { tokens: TokenSet }): WorkOSProfile {
  const user = record(tokens.user);
  if (idOf(user.id) === undefined) throw new Error("workos: the authenticate response carries no user.");
  return user as WorkOSProfile;
}

/**
 * WorkOS AuthKit as a sign-in provider (`AUTH_WORKOS_ID` = client id, `AUTH_WORKOS_SECRET` = API
 * key). Options win; `authorization.params` merge with the default (`provider`).
 */
export default function WorkOS<P extends WorkOSProfile = WorkOSProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "workos",
    name: "WorkOS",
    type: "oauth",
    authorization: { url: "https://api.workos.com/user_management/authorize", params: { provider: "authkit" } },
    token: { url: "https://api.workos.com/user_management/authenticate", request: workosToken },
    userinfo: { request: workosUser },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: joinName(profile.first_name, profile.last_name),
        email: text(profile.email),
        image: httpsUrl(profile.profile_picture_url),
      };
    },
    style: { brandColor: "#6363f1", logo: workosLogo },
  };
  return withUserOptions(defaults, options);
}

export { WorkOS };
