/**
 * Sign in with Mail.ru (VK ID's Mail.ru accounts): OAuth 2.
 *
 * - Endpoints: `https://oauth.mail.ru/login` (scope `userinfo`; Mail.ru requires `state`),
 *   `https://oauth.mail.ru/token` (client credentials in HTTP Basic) and
 *   `GET https://oauth.mail.ru/userinfo`, which takes the token as the `access_token` query
 *   parameter.
 * - The token answer has no `token_type`, which standard OAuth clients refuse, so `token.request`
 *   makes the exchange itself. The userinfo endpoint answers errors with a 200 and an `error`
 *   field; those fail the sign-in.
 *
 * @see https://oauth.mail.ru/docs/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { mailruLogo } from "../logos/mailru.js";
import { exchangeCode } from "./code-exchange.js";
import { endpointUrl, fetchJson, httpsUrl, idOf, joinName, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /userinfo`. */
export interface MailruProfile extends Profile {
  id: string;
  client_id?: string;
  email?: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  nickname?: string;
  gender?: string;
  birthday?: string;
  locale?: string;
  image?: string;
}

/** The user, with the token as the `access_token` parameter; an `error` answer is an error. */
async function mailruUserinfo(context: UserinfoContext): Promise<MailruProfile> {
  const url = new URL(endpointUrl(context.provider.userinfo) ?? "https://oauth.mail.ru/userinfo");
  const token = context.tokens.access_token;
  if (typeof token !== "string" || token === "") throw new TypeError("mailru: the token response has no access_token.");
  url.searchParams.set("access_token", token);
  const answer = record(await fetchJson(context.fetch, url.href, { provider: "mailru", headers: { Accept: "application/json" } }));
  if (answer.error !== undefined) throw new Error("mailru: the userinfo endpoint answered an error", { cause: { error: answer.error } });
  return answer as MailruProfile;
}

/** Mail.ru as a sign-in provider (`AUTH_MAILRU_ID`, `AUTH_MAILRU_SECRET`). Options win. */
export default function Mailru<P extends MailruProfile = MailruProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "mailru",
    name: "Mail.ru",
    type: "oauth",
    authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
    token: {
      url: "https://oauth.mail.ru/token",
      request: (context) => exchangeCode(context, { provider: "mailru", auth: "client_secret_basic" }),
    },
    userinfo: { url: "https://oauth.mail.ru/userinfo", request: mailruUserinfo },
    checks: ["state"],
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.name) ?? joinName(profile.first_name, profile.last_name) ?? text(profile.nickname),
        email: text(profile.email),
        image: httpsUrl(profile.image),
      };
    },
    style: { brandColor: "#005ff9", logo: mailruLogo },
  };
  return withUserOptions(defaults, options);
}

export { Mailru };
