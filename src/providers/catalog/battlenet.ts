/**
 * Sign in with Battle.net (Blizzard): OpenID Connect.
 *
 * - The issuer is `https://oauth.battle.net` (default), or `https://oauth.battlenet.com.cn` for
 *   the China region: pass it as `issuer` or set `AUTH_BATTLENET_ISSUER`. Endpoints and keys are
 *   discovered from it.
 * - Scope `openid`: the ID token carries `sub` (the account id) and `battle_tag`. Battle.net shares
 *   no email address and no picture. `state` and `nonce` guard the callback.
 *
 * @see https://develop.battle.net/documentation/guides/using-oauth
 * @see https://develop.battle.net/documentation/guides/using-oauth/authorization-code-flow
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { battlenetLogo } from "../logos/battlenet.js";
import { idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Battle.net ID token. */
export interface BattleNetProfile extends Profile {
  sub: string;
  battle_tag?: string;
  iss?: string;
  aud?: string | string[];
  azp?: string;
  exp?: number;
  iat?: number;
  auth_time?: number;
}

/** The issuers Battle.net documents: global, and China. */
export type BattleNetIssuer = "https://oauth.battle.net" | "https://oauth.battlenet.com.cn" | (string & {});

/**
 * Battle.net as a sign-in provider (`AUTH_BATTLENET_ID`, `AUTH_BATTLENET_SECRET`,
 * `AUTH_BATTLENET_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function BattleNet<P extends BattleNetProfile = BattleNetProfile>(
  options: OAuthUserConfig<P> & { issuer?: BattleNetIssuer } = {},
): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "battlenet",
    name: "Battle.net",
    type: "oidc",
    issuer: "https://oauth.battle.net",
    authorization: { params: { scope: "openid" } },
    checks: ["state", "nonce"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.battle_tag),
        email: null,
        image: null,
      };
    },
    style: { brandColor: "#148eff", logo: battlenetLogo },
  };
  return withUserOptions(defaults, { ...options, issuer: withoutTrailingSlash(options.issuer) }, options);
}

export { BattleNet };
