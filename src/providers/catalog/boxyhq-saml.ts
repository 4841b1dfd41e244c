/**
 * Sign in through SAML single sign-on with BoxyHQ SAML Jackson, which puts an OAuth 2 face on an
 * organization's SAML identity provider (Okta, Entra ID, Google Workspace...): the app speaks OAuth
 * 2 to Jackson, Jackson speaks SAML to the identity provider.
 *
 * - The issuer is your Jackson deployment's URL (e.g. `https://jackson.example.com`, or BoxyHQ's
 *   hosted service): pass it as `issuer` or set `AUTH_BOXYHQ_SAML_ISSUER`; the endpoints are
 *   `<issuer>/api/oauth/authorize`, `<issuer>/api/oauth/token` (client id and secret in the body)
 *   and `<issuer>/api/oauth/userinfo`. There are no endpoints without it: listed without an
 *   issuer, the provider cannot start a sign-in.
 * - Which SAML connection signs the person in: the client id Jackson generated for it, or the
 *   client id `dummy` with `authorization: { params: { tenant, product } }`.
 * - PKCE and `state` guard the callback. The profile is the SAML assertion's `id`, `email`,
 *   `firstName`, `lastName`. Auth.js also sent `provider=saml`, a parameter Jackson does not document.
 *
 * @see https://boxyhq.com/docs/jackson/sso-flow
 * @see https://boxyhq.com/docs/jackson/sso-flow/sso-api
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { boxyhqSamlLogo } from "../logos/boxyhq-saml.js";
import { idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** `GET <issuer>/api/oauth/userinfo`: the SAML assertion's attributes. */
export interface BoxyHQSAMLProfile extends Profile {
  id: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  roles?: string[];
  groups?: string[];
  requested?: Record<string, unknown>;
  raw?: Record<string, unknown>;
}

/**
 * BoxyHQ SAML Jackson as a sign-in provider (`AUTH_BOXYHQ_SAML_ID`, `AUTH_BOXYHQ_SAML_SECRET`,
 * `AUTH_BOXYHQ_SAML_ISSUER`). Options win; `authorization.params` merge key by key.
 */
export default function BoxyHQSAML<P extends BoxyHQSAMLProfile = BoxyHQSAMLProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const issuer = withoutTrailingSlash(options.issuer);
  const at = (path: string) => (issuer ? `${issuer}${path}` : undefined);
  const defaults: OAuth2Config<P> = {
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    type: "oauth",
    authorization: { url: at("/api/oauth/authorize"), params: {} },
    token: { url: at("/api/oauth/token") },
    userinfo: { url: at("/api/oauth/userinfo") },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: joinName(profile.firstName, profile.lastName),
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#25c2a0", logo: boxyhqSamlLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { BoxyHQSAML };
