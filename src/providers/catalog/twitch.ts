/**
 * Sign in with Twitch: OpenID Connect, discovered from `https://id.twitch.tv/oauth2`.
 *
 * - Scope `openid user:read:email`. Twitch puts only the claims asked for with the OIDC `claims`
 *   parameter in the ID token, so the defaults ask for `email`, `email_verified`, `picture` and
 *   `preferred_username` (a JSON string in `authorization.params.claims`).
 * - Twitch answers the token request with `scope` as a JSON array, which standard OAuth clients
 *   (oauth4webapi) reject, so `token.request` makes the exchange itself (client credentials in
 *   the body, as Twitch wants) and joins the scopes with spaces. The profile is then read from the
 *   userinfo endpoint (`idToken: false`), which answers the claims the `claims` parameter asks for.
 * - Twitch offers no PKCE: the callback is protected by `state` (and `nonce` in the ID token).
 *
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 */
import type { OAuthUserConfig, OIDCConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { twitchLogo } from "../logos/twitch.js";
import { endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type TokenContext } from "./shared.js";

/** Twitch's userinfo answer (and ID token claims) with the claims the defaults request. */
export interface TwitchProfile extends Profile {
  iss?: string;
  sub: string;
  aud?: string;
  azp?: string;
  exp?: number;
  iat?: number;
  nonce?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  updated_at?: string;
}

const CLAIMS = JSON.stringify({
  id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
  userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
});

/** The code exchange at Twitch's token endpoint, with the scope array made a space-separated string. */
async function twitchToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { provider, params, codeVerifier, redirectUri } = context;
  const code = params.get("code");
  if (!code) throw new TypeError("twitch: the callback carries no authorization code.");
  if (!provider.clientId || !provider.clientSecret) {
    throw new TypeError("twitch: clientId and clientSecret are required (AUTH_TWITCH_ID, AUTH_TWITCH_SECRET).");
  }
  const body = new URLSearchParams({
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    code,
    grant_type: "authorization_code",
    redirect_uri: redirectUri,
  });
  if (codeVerifier) body.set("code_verifier", codeVerifier);
  const url = endpointUrl(provider.token) ?? "https://id.twitch.tv/oauth2/token";
  const tokens = record(
    await fetchJson(context.fetch, url, {
      provider: "twitch",
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body,
    }),
  ) as TokenSet;
  if (typeof tokens.access_token !== "string") throw new Error("twitch: the token response has no access_token.");
  if (Array.isArray(tokens.scope)) tokens.scope = tokens.scope.filter((s) => typeof s === "string").join(" ");
  return { tokens };
}

/**
 * Twitch as a sign-in provider (`AUTH_TWITCH_ID`, `AUTH_TWITCH_SECRET`). Options win;
 * `authorization.params` merge with the defaults (`scope`, `claims`).
 */
export default function Twitch<P extends TwitchProfile = TwitchProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    authorization: { params: { scope: "openid user:read:email", claims: CLAIMS } },
    token: { url: "https://id.twitch.tv/oauth2/token", request: twitchToken },
    idToken: false,
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.preferred_username),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#9146ff", logo: twitchLogo },
  };
  return withUserOptions(defaults, options);
}

export { Twitch };
