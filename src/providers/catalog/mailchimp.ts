/**
 * Sign in with Mailchimp: OAuth 2.
 *
 * - Endpoints: `https://login.mailchimp.com/oauth2/authorize` and `.../oauth2/token` (client
 *   credentials in the body). Mailchimp has no scopes.
 * - The token answer has no `token_type` (only `access_token`, `expires_in: 0` and `scope: null`),
 *   which standard OAuth clients refuse, so `token.request` makes the exchange itself; the token
 *   never expires.
 * - The user is read from `GET https://login.mailchimp.com/oauth2/metadata`, which takes the token
 *   in an `Authorization: OAuth <token>` header and also names the account's data centre (`dc`)
 *   and `api_endpoint` for Marketing API calls.
 * - No PKCE is documented: `state` protects the callback.
 *
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { mailchimpLogo } from "../logos/mailchimp.js";
import { exchangeCode } from "./code-exchange.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** `GET /oauth2/metadata`. */
export interface MailchimpProfile extends Profile {
  dc: string;
  role?: string;
  accountname?: string;
  user_id?: number;
  login: {
    email?: string;
    avatar?: string | null;
    login_id: number;
    login_name?: string;
    login_email?: string;
  };
  login_url?: string;
  api_endpoint?: string;
}

async function mailchimpMetadata(context: UserinfoContext): Promise<MailchimpProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? "https://login.mailchimp.com/oauth2/metadata";
  const headers = { Authorization: bearer(context.tokens, "OAuth"), Accept: "application/json" };
  return record(await fetchJson(context.fetch, url, { provider: "mailchimp", headers })) as MailchimpProfile;
}

/** Mailchimp as a sign-in provider (`AUTH_MAILCHIMP_ID`, `AUTH_MAILCHIMP_SECRET`). Options win. */
export default function Mailchimp<P extends MailchimpProfile = MailchimpProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const defaults: OAuth2Config<P> = {
    id: "mailchimp",
    name: "Mailchimp",
    type: "oauth",
    authorization: { url: "https://login.mailchimp.com/oauth2/authorize" },
    token: { url: "https://login.mailchimp.com/oauth2/token", request: (context) => exchangeCode(context, { provider: "mailchimp" }) },
    userinfo: { url: "https://login.mailchimp.com/oauth2/metadata", request: mailchimpMetadata },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const login = record(profile.login);
      return {
        id: idOf(login.login_id),
        name: text(login.login_name) ?? text(profile.accountname),
        email: text(login.login_email) ?? text(login.email),
        image: httpsUrl(login.avatar),
      };
    },
    style: { brandColor: "#ffe01b", logo: mailchimpLogo },
  };
  return withUserOptions(defaults, options);
}

export { Mailchimp };
