/**
 * Sign in with Descope: OpenID Connect against a Descope project, discovered from its issuer.
 *
 * How the issuer is built: `issuer` when given, else `https://api.descope.com/<projectId>` from
 * the `projectId` option, else from `clientId` (a Descope project's OIDC client id is its
 * project id). With neither, set `AUTH_DESCOPE_ISSUER`.
 *
 * - Scope `openid profile email`; the ID token carries `sub`, `name`, `email`, `email_verified`,
 *   `picture`, `phone_number`. PKCE is supported; `state` is checked too.
 *
 * @see https://docs.descope.com/identity-federation/applications/oidc-apps
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { descopeLogo } from "../logos/descope.js";
import { httpsUrl, idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of a Descope ID token. */
export interface DescopeProfile extends Profile {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  picture?: string;
  iss?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
}

export interface DescopeOptions<P extends DescopeProfile = DescopeProfile> extends OAuthUserConfig<P> {
  /** The Descope project id (`P2...`); builds the issuer when `issuer` is not given. */
  projectId?: string;
}

/**
 * Descope as a sign-in provider (`AUTH_DESCOPE_ID`, `AUTH_DESCOPE_SECRET`, `AUTH_DESCOPE_ISSUER`).
 * Options win; `authorization.params` merge with the default scope.
 */
export default function Descope<P extends DescopeProfile = DescopeProfile>(options: DescopeOptions<P> = {}): OIDCConfig<P> {
  const { projectId, ...rest } = options;
  const project = projectId ?? rest.clientId;
  const issuer =
    withoutTrailingSlash(rest.issuer) ?? (project ? `https://api.descope.com/${encodeURIComponent(project)}` : undefined);
  const defaults: OIDCConfig<P> = {
    id: "descope",
    name: "Descope",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.sub),
        name: text(profile.name),
        email: text(profile.email),
        image: httpsUrl(profile.picture),
      };
    },
    style: { brandColor: "#1c1c23", logo: descopeLogo },
  };
  return withUserOptions(defaults, { ...rest, issuer }, options);
}

export { Descope };
