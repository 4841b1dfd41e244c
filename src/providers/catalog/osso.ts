/**
 * Sign in with Osso (open-source SAML SSO that hands its users to you through OAuth 2): OAuth 2
 * against your Osso instance.
 *
 * - The instance's URL (`https://sso.example.com`) is the `issuer`, as in Auth.js: pass it or set
 *   `AUTH_OSSO_ISSUER`. A bare host (`demo.ossoapp.com`, as Auth.js's docs write it) is taken as
 *   https. Without it there are no endpoints and the sign-in is refused at start-up.
 * - Endpoints `<issuer>/oauth/authorize`, `<issuer>/oauth/token` and `GET <issuer>/oauth/me`.
 * - Osso picks the customer's SAML identity provider from an `email` or `domain` authorization
 *   parameter: pass one per sign-in (`signIn("osso", {}, { domain: "example.com" })`) or in
 *   `authorization.params`; without one Osso shows its own form. `state` protects the callback.
 * - SAML users have no display name in Osso's normalised profile: the email stands in for it.
 *
 * @see https://ossoapp.com/docs/consume/overview
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { ossoLogo } from "../logos/osso.js";
import { idOf, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** `GET /oauth/me`: Osso's normalised profile. */
export interface OssoProfile extends Profile {
  id: string;
  email: string;
  /** The identity provider that authenticated the user (`Okta`, `Azure`, ...). */
  idp?: string;
  /** What the authorization request asked for (`domain` or `email`). */
  requested?: { domain?: string | null; email?: string | null };
}

/** `demo.ossoapp.com` → `https://demo.ossoapp.com`; a URL as given, without trailing slashes. */
function instanceUrl(issuer: string | undefined): string | undefined {
  const trimmed = withoutTrailingSlash(issuer?.trim());
  if (!trimmed) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** Osso as a sign-in provider (`AUTH_OSSO_ID`, `_SECRET`, `_ISSUER`). Options win; endpoints follow `issuer`. */
export default function Osso<P extends OssoProfile = OssoProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const issuer = instanceUrl(options.issuer);
  const defaults: OAuth2Config<P> = {
    id: "osso",
    name: "Osso",
    type: "oauth",
    ...(issuer
      ? {
          authorization: { url: `${issuer}/oauth/authorize` },
          token: { url: `${issuer}/oauth/token` },
          userinfo: { url: `${issuer}/oauth/me` },
        }
      : { authorization: {} }),
    checks: ["state"],
    profile(profile) {
      const email = text(profile.email);
      return { id: idOf(profile.id), name: email, email, image: null };
    },
    style: { brandColor: "#1d4ed8", logo: ossoLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { Osso };
