/**
 * Sign in with Trakt: OAuth 2.
 *
 * - Endpoints: `https://trakt.tv/oauth/authorize`, `https://api.trakt.tv/oauth/token` and
 *   `GET https://api.trakt.tv/users/me?extended=full`.
 * - Trakt's token endpoint reads a JSON body (client id and secret in it), so `token.request`
 *   makes the exchange itself. Every API call names the API version and the app
 *   (`trakt-api-version: 2`, `trakt-api-key: <client id>`), so `userinfo.request` sends them.
 * - No scope; Trakt documents `state` and no PKCE for web apps. Trakt profiles carry no email.
 * - The account id is the user's `ids.slug`, as in Auth.js.
 *
 * @see https://trakt.docs.apiary.io/#reference/authentication-oauth
 * @see https://trakt.docs.apiary.io/#reference/users/profile
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { traktLogo } from "../logos/trakt.js";
import {
  bearer,
  endpointUrl,
  exchangeCode,
  fetchJson,
  httpsUrl,
  record,
  text,
  withUserOptions,
  type TokenContext,
  type UserinfoContext,
} from "./shared.js";

/** `GET /users/me?extended=full` (the fields sign-in uses). */
export interface TraktUser extends Profile {
  username: string;
  private?: boolean;
  name?: string | null;
  vip?: boolean;
  vip_ep?: boolean;
  ids: { slug: string; uuid?: string };
  joined_at?: string;
  location?: string | null;
  about?: string | null;
  gender?: string | null;
  age?: number | null;
  images?: { avatar?: { full?: string } };
}

const traktToken = (context: TokenContext) =>
  exchangeCode(context, { provider: "trakt", url: "https://api.trakt.tv/oauth/token", body: "json" });

async function traktUserinfo(context: UserinfoContext): Promise<TraktUser> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://api.trakt.tv/users/me?extended=full";
  const headers = {
    Authorization: bearer(context.tokens),
    "Content-Type": "application/json",
    "trakt-api-version": "2",
    "trakt-api-key": context.provider.clientId ?? "",
  };
  return record(await fetchJson(context.fetch, url, { provider: "trakt", headers })) as TraktUser;
}

/** Trakt as a sign-in provider (`AUTH_TRAKT_ID`, `AUTH_TRAKT_SECRET`). Options win. */
export default function Trakt<P extends TraktUser = TraktUser>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "trakt",
    name: "Trakt",
    type: "oauth",
    authorization: { url: "https://trakt.tv/oauth/authorize" },
    token: { url: "https://api.trakt.tv/oauth/token", request: traktToken },
    userinfo: { url: "https://api.trakt.tv/users/me?extended=full", request: traktUserinfo },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const slug = text(record(profile.ids).slug);
      return {
        id: slug ?? undefined,
        name: text(profile.name) ?? text(profile.username),
        email: null,
        image: httpsUrl(record(record(profile.images).avatar).full),
      };
    },
    style: { brandColor: "#ed1c24", logo: traktLogo },
  };
  return withUserOptions(defaults, options);
}

export { Trakt };
