/**
 * Sign in with ClickUp: OAuth 2 (an OAuth app of a ClickUp Workspace).
 *
 * - Endpoints: `https://app.clickup.com/api` (authorization), `https://api.clickup.com/api/v2/oauth/token`
 *   and `GET https://api.clickup.com/api/v2/user`.
 * - ClickUp's token request is not RFC 6749's: its reference takes `client_id`, `client_secret`
 *   and `code` as query parameters (no `grant_type`, no `redirect_uri`), and answers only
 *   `access_token` (no `token_type`, no expiry). `token.request` makes that call itself.
 * - API calls carry the token bare in `Authorization` (no `Bearer`), as ClickUp's API documents;
 *   `userinfo.request` does. No scopes: the person picks the Workspaces to authorize. `state`
 *   guards the callback.
 * - The user resource wraps the user in `user`: numeric `id`, `username`, `email`,
 *   `profilePicture`.
 *
 * @see https://developer.clickup.com/docs/authentication
 * @see https://developer.clickup.com/reference/getaccesstoken
 */
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { clickUpLogo } from "../logos/click-up.js";
import { endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type TokenContext, type UserinfoContext } from "./shared.js";

/** `GET /api/v2/user`. */
export interface ClickUpProfile extends Profile {
  user: {
    /** ClickUp sends the numeric user id. */
    id: number | string;
    username?: string;
    email?: string;
    color?: string;
    profilePicture?: string | null;
    initials?: string;
    week_start_day?: number | null;
    global_font_support?: boolean;
    timezone?: string;
  };
}

async function clickUpToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { provider, params } = context;
  const code = params.get("code");
  if (!code) throw new TypeError("click-up: the callback carries no authorization code.");
  if (!provider.clientId || !provider.clientSecret) {
    throw new TypeError("click-up: clientId and clientSecret are required (AUTH_CLICK_UP_ID, AUTH_CLICK_UP_SECRET).");
  }
  const url = new URL(endpointUrl(provider.token) ?? "https://api.clickup.com/api/v2/oauth/token");
  url.search = new URLSearchParams({ client_id: provider.clientId, client_secret: provider.clientSecret, code }).toString();
  const tokens = record(await fetchJson(context.fetch, url.href, { provider: "click-up", method: "POST", headers: { Accept: "application/json" } })) as TokenSet;
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") throw new Error("click-up: the token response has no access_token.");
  return { tokens: { ...tokens, token_type: "bearer" } };
}

async function clickUpUserinfo(context: UserinfoContext): Promise<ClickUpProfile> {
  const token = context.tokens.access_token;
  if (typeof token !== "string" || token === "") throw new TypeError("click-up: no access_token to call the API with.");
  const url = endpointUrl(context.provider.userinfo) ?? "https://api.clickup.com/api/v2/user";
  return record(await fetchJson(context.fetch, url, { provider: "click-up", headers: { Authorization: token } })) as unknown as ClickUpProfile;
}

/**
 * ClickUp as a sign-in provider (`AUTH_CLICK_UP_ID`, `AUTH_CLICK_UP_SECRET`). Options win;
 * `authorization.params` merge key by key.
 */
export default function ClickUp<P extends ClickUpProfile = ClickUpProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "click-up",
    name: "ClickUp",
    type: "oauth",
    authorization: { url: "https://app.clickup.com/api", params: {} },
    token: { url: "https://api.clickup.com/api/v2/oauth/token", request: clickUpToken },
    userinfo: { url: "https://api.clickup.com/api/v2/user", request: clickUpUserinfo },
    checks: ["state"],
    profile(profile) {
      const user = record(profile.user);
      return {
        id: idOf(user.id),
        name: text(user.username),
        email: text(user.email),
        image: httpsUrl(user.profilePicture),
      };
    },
    style: { brandColor: "#7b68ee", logo: clickUpLogo },
  };
  return withUserOptions(defaults, options);
}

export { ClickUp };
