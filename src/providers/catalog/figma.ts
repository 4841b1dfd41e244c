/**
 * Sign in with Figma: OAuth 2 (a Figma OAuth app).
 *
 * - Endpoints: `https://www.figma.com/oauth`, `https://api.figma.com/v1/oauth/token` (client id
 *   and secret in HTTP Basic) and `GET https://api.figma.com/v1/me`.
 * - Scope `current_user:read`: the user's name, email and image, what `/v1/me` needs. Figma
 *   deprecated the broad `files:read` scope (Auth.js's default) for granular ones; an app that
 *   still has it can pass `authorization: { params: { scope: "files:read" } }`. `state` is required
 *   by Figma and checked.
 *
 * @see https://developers.figma.com/docs/rest-api/authentication
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { figmaLogo } from "../logos/figma.js";
import { httpsUrl, idOf, text, withUserOptions } from "./shared.js";

/** `GET /v1/me`. */
export interface FigmaProfile extends Profile {
  id: string;
  email?: string;
  handle?: string;
  img_url?: string;
}

/**
 * Figma as a sign-in provider (`AUTH_FIGMA_ID`, `AUTH_FIGMA_SECRET`). Options win;
 * `authorization.params` merge with the default scope.
 */
export default function Figma<P extends FigmaProfile = FigmaProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "figma",
    name: "Figma",
    type: "oauth",
    authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
    token: { url: "https://api.figma.com/v1/oauth/token" },
    userinfo: { url: "https://api.figma.com/v1/me" },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.handle),
        email: text(profile.email),
        image: httpsUrl(profile.img_url),
      };
    },
    style: { brandColor: "#a259ff", logo: figmaLogo },
  };
  return withUserOptions(defaults, options);
}

export { Figma };
