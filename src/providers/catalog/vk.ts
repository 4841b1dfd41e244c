/**
 * Sign in with VK: the OAuth 2 authorization code flow of `oauth.vk.com` (API version 5.131, as
 * Auth.js's VK provider uses).
 *
 * - Endpoints: `https://oauth.vk.com/authorize` (scope `email`, the API version as `v`; `state` is
 *   returned), `GET https://oauth.vk.com/access_token` with `client_id`, `client_secret`,
 *   `redirect_uri` and `code` in the query (no `grant_type`), and the API method
 *   `GET https://api.vk.com/method/users.get`, which takes the token as the `access_token` query
 *   parameter.
 * - The token answer has no `token_type` and carries the person's `user_id` and, when the `email`
 *   scope was granted, their `email` (the API does not return it), so the email is taken from
 *   there. VK answers errors with a 200 and an `error` field; those fail the sign-in, and no error
 *   message names a URL (they carry the secret or the token).
 * - VK ID (`id.vk.com`, OAuth 2.1 with PKCE and a `device_id`) is a separate sign-in for apps
 *   registered there; this provider keeps Auth.js's id `vk` and its endpoints, so apps registered
 *   with `oauth.vk.com` keep their redirect URIs.
 *
 * @see https://dev.vk.com/en/api/access-token/authcode-flow-user
 * @see https://dev.vk.com/en/method/users.get
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { vkLogo } from "../logos/vk.js";
import { endpointUrl, exchangeCode, fetchJsonQuietly, httpsUrl, idOf, joinName, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** The API version Auth.js's VK provider asks for. */
const API_VERSION = "5.131";

/** A `users.get` entry (with `fields=photo_100`), and the `email` of the token answer. */
export interface VkProfile extends Profile {
  id: number;
  first_name?: string;
  last_name?: string;
  photo_100?: string;
  can_access_closed?: boolean;
  is_closed?: boolean;
  email?: string | null;
}

/** `users.get` for the signed-in person, with the token in the query; the email comes from the token answer. */
async function vkUserinfo(context: UserinfoContext): Promise<VkProfile> {
  const url = new URL(endpointUrl(context.provider.userinfo) ?? "https://api.vk.com/method/users.get");
  const token = context.tokens.access_token;
  if (typeof token !== "string" || token === "") throw new TypeError("vk: the token response has no access_token.");
  if (!url.searchParams.has("fields")) url.searchParams.set("fields", "photo_100");
  if (!url.searchParams.has("v")) url.searchParams.set("v", API_VERSION);
  url.searchParams.set("access_token", token);
  const answer = record(await fetchJsonQuietly(context.fetch, url, { provider: "vk", what: "users.get" }));
  const [user] = Array.isArray(answer.response) ? (answer.response as unknown[]) : [];
  if (answer.error !== undefined || user === undefined) throw new Error("vk: users.get answered no user", { cause: { error: record(answer.error).error_code } });
  const email = text(context.tokens.email);
  return { ...record(user), email } as VkProfile;
}

/** VK as a sign-in provider (`AUTH_VK_ID`, `AUTH_VK_SECRET`). Options win. */
export default function VK<P extends VkProfile = VkProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "vk",
    name: "VK",
    type: "oauth",
    authorization: { url: "https://oauth.vk.com/authorize", params: { scope: "email", v: API_VERSION } },
    token: {
      url: "https://oauth.vk.com/access_token",
      request: (context) => exchangeCode(context, { provider: "vk", url: "https://oauth.vk.com/access_token", method: "GET", grantType: false }),
    },
    userinfo: { url: "https://api.vk.com/method/users.get", request: vkUserinfo },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: joinName(profile.first_name, profile.last_name),
        email: text(profile.email),
        image: httpsUrl(profile.photo_100),
      };
    },
    style: { brandColor: "#0077ff", logo: vkLogo },
  };
  return withUserOptions(defaults, options);
}

export { VK };
