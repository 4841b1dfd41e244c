/**
 * Sign in with Apple: OpenID Connect, discovered from `https://appleid.apple.com`.
 *
 * - Scope `name email` with `response_mode=form_post`: Apple requires `form_post` whenever a
 *   scope is requested, so the callback is a cross-site POST to `/callback/apple`.
 * - The client secret is not a fixed string but a short-lived ES256 JWT you sign with your Sign in
 *   with Apple key (team id as `iss`, Services ID as `sub`, `aud` = `https://appleid.apple.com`);
 *   it is sent in the body (`client_secret_post`).
 * - The ID token carries `sub` and `email` (possibly a private relay address); `email_verified`
 *   and `is_private_email` may be booleans or the strings `"true"`/`"false"`.
 * - The person's name is never in the ID token: Apple posts it once, on the first sign-in only,
 *   as the form field `user` (JSON: `{ name: { firstName, lastName }, email }`). The callback
 *   flow is expected to parse that field and put it on the profile as `user`; later sign-ins have
 *   no name, so the `name` stored at sign-up should be kept. That field is not signed: only the
 *   name is taken from it, never the email.
 * - Apple does not support PKCE; the callback is protected by `state` and `nonce`.
 *
 * @see https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_rest_api
 * @see https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { appleLogo } from "../logos/apple.js";
import { idOf, joinName, record, text, withUserOptions } from "./shared.js";

/** What Apple posts as `user` on the first authorization only. */
export interface AppleUserFormData {
  name?: { firstName?: string; lastName?: string };
  email?: string;
}

/** The claims of an Apple ID token, plus `user` from the first callback's form post. */
export interface AppleProfile extends Profile {
  iss: string;
  aud: string;
  exp: number;
  iat: number;
  sub: string;
  nonce?: string;
  nonce_supported?: boolean;
  at_hash?: string;
  c_hash?: string;
  email?: string;
  /** `true`/`false`, or the same as a string: see `is_private_email`. */
  email_verified?: boolean | null;
  is_private_email?: boolean | "true" | "false";
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2;
  transfer_sub?: string;
  auth_time?: number;
  /** The parsed `user` form field of the first callback (the only time Apple sends a name). */
  user?: AppleUserFormData;
}

/**
 * Apple as a sign-in provider (`AUTH_APPLE_ID` = the Services ID, `AUTH_APPLE_SECRET` = the
 * signed client-secret JWT). Options win; `authorization.params` merge with the defaults.
 */
export default function Apple<P extends AppleProfile = AppleProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
  const defaults: OIDCConfig<P> = {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["nonce", "state"],
    profile(profile) {
      const user = record(profile.user);
      const name = record(user.name);
      return {
        id: idOf(profile.sub),
        name: joinName(name.firstName, name.lastName),
        // Only the signed ID token is trusted for the email: the `user` form field is unsigned.
        email: text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#000000", logo: appleLogo },
  };
  return withUserOptions(defaults, options);
}

export { Apple };
