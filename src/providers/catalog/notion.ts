/**
 * Sign in with Notion (a public integration): OAuth 2.
 *
 * - Authorization at `https://api.notion.com/v1/oauth/authorize` with `owner=user`.
 * - Notion's token endpoint takes a JSON body with the client credentials in HTTP Basic, so
 *   `token.request` makes that call itself (through the flow's fetch) instead of the standard
 *   form-encoded exchange. Its answer already names the user who authorized the integration
 *   (`owner.user`), which `userinfo.request` returns without a second call; only when it is absent
 *   does it ask `GET /v1/users/me` (the bot, whose `owner.user` is the same person).
 * - No scope parameter (capabilities are set on the integration) and no PKCE: the callback is
 *   protected by `state`. The email is present only with the "Read user information including
 *   email addresses" capability.
 *
 * @see https://developers.notion.com/docs/authorization
 * @see https://developers.notion.com/reference/create-a-token
 */
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { notionLogo } from "../logos/notion.js";
import {
  bearer,
  endpointUrl,
  fetchJson,
  httpsUrl,
  idOf,
  record,
  text,
  withUserOptions,
  type TokenContext,
  type UserinfoContext,
} from "./shared.js";

/** A Notion user object of type `person` (the `owner.user` of a token). */
export interface NotionProfile extends Profile {
  object?: "user";
  id: string;
  type?: "person";
  name?: string | null;
  avatar_url?: string | null;
  person?: { email?: string };
}

/** The Notion API version the requests name (`Notion-Version` header). */
export const NOTION_API_VERSION = "2022-06-28";

async function notionToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { provider, params, redirectUri } = context;
  const code = params.get("code");
  if (!code) throw new TypeError("notion: the callback carries no authorization code.");
  if (!provider.clientId || !provider.clientSecret) {
    throw new TypeError("notion: clientId and clientSecret are required (AUTH_NOTION_ID, AUTH_NOTION_SECRET).");
  }
  const url = endpointUrl(provider.token) ?? "https://api.notion.com/v1/oauth/token";
  const body = await fetchJson(context.fetch, url, {
    provider: "notion",
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${provider.clientId}:${provider.clientSecret}`)}`,
      "Content-Type": "application/json",
      Accept: "application/json",
      "Notion-Version": NOTION_API_VERSION,
    },
    body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
  });
  const tokens = record(body) as TokenSet;
  if (typeof tokens.access_token !== "string") throw new Error("notion: the token response has no access_token.");
  return { tokens };
}

async function notionUserinfo(context: UserinfoContext): Promise<NotionProfile> {
  const owner = record(record(context.tokens.owner).user);
  if (idOf(owner.id) !== undefined) return owner as NotionProfile;
  const url = endpointUrl(context.provider.userinfo) ?? "https://api.notion.com/v1/users/me";
  const bot = record(
    await fetchJson(context.fetch, url, {
      provider: "notion",
      headers: { Authorization: bearer(context.tokens), "Notion-Version": NOTION_API_VERSION },
    }),
  );
  return record(record(record(bot.bot).owner).user) as NotionProfile;
}

/**
 * Notion as a sign-in provider (`AUTH_NOTION_ID`, `AUTH_NOTION_SECRET`). Options win;
 * `authorization.params` merge with the default (`owner`).
 */
export default function Notion<P extends NotionProfile = NotionProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "notion",
    name: "Notion",
    type: "oauth",
    authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user" } },
    token: { url: "https://api.notion.com/v1/oauth/token", request: notionToken },
    userinfo: { url: "https://api.notion.com/v1/users/me", request: notionUserinfo },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name),
        email: text(record(profile.person).email),
        image: httpsUrl(profile.avatar_url),
      };
    },
    style: { brandColor: "#000000", logo: notionLogo },
  };
  return withUserOptions(defaults, options);
}

export { Notion };
