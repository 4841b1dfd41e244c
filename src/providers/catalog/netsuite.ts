/**
 * Sign in with NetSuite: OAuth 2 against one NetSuite account, whose user is read from a RESTlet
 * the account deploys (NetSuite has no user endpoint of its own).
 *
 * ```ts
 * NetSuite({
 *   clientId: process.env.AUTH_NETSUITE_ID,
 *   clientSecret: process.env.AUTH_NETSUITE_SECRET,
 *   accountID: "1234567", // a sandbox: "1234567_SB1"
 *   userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
 * })
 * ```
 *
 * - `accountID` and `userinfo` are required, as in Auth.js: the factory refuses options without
 *   them, so the configuration fails at start-up naming what is missing. The account id makes the
 *   hosts (`1234567_SB1` → `1234567-sb1.app.netsuite.com`).
 * - Endpoints: `https://<account>.app.netsuite.com/app/login/oauth2/authorize.nl` (scope
 *   `restlets rest_webservices`; NetSuite requires `state`) and
 *   `https://<account>.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token` (client id
 *   and secret in HTTP Basic). Its token answer may give `expires_in` as a string; it is read as
 *   a number.
 * - `userinfo`: the RESTlet's deployment URL. It is called with `GET`, the token as a bearer and
 *   `Content-Type: application/json` (RESTlets want it), and should return the current user, e.g.
 *   `runtime.getCurrentUser()` of SuiteScript's `N/runtime` module as JSON: `{ id, name, email,
 *   role, ... }`.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157771733782.html
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_4296360201.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { netsuiteLogo } from "../logos/netsuite.js";
import { exchangeCode } from "./code-exchange.js";
import { bearer, endpointUrl, fetchJson, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** What a RESTlet returning `runtime.getCurrentUser()` answers. */
export interface NetSuiteProfile extends Profile {
  id: number;
  name?: string;
  email?: string;
  location?: number;
  department?: number;
  role?: number;
  roleId?: string;
  roleCenter?: string;
  subsidiary?: number;
  contact?: number;
}

export interface NetSuiteUserConfig<P extends NetSuiteProfile> extends OAuthUserConfig<P> {
  /** The NetSuite account id (Setup > Company > Company Information), e.g. `1234567` or `1234567_SB1`. */
  accountID?: string;
}

/** The account's host label: lower case, `_` as `-` (`1234567_SB1` → `1234567-sb1`). */
function accountHost(accountID: string): string {
  const label = accountID.trim().toLowerCase().replace(/_/g, "-");
  if (!/^[a-z0-9-]+$/.test(label)) throw new TypeError(`netsuite: "${accountID}" is not a NetSuite account id (e.g. "1234567" or "1234567_SB1").`);
  return label;
}

/** The RESTlet's answer, with the token as a bearer. */
async function restletUser(context: UserinfoContext): Promise<NetSuiteProfile> {
  const url = endpointUrl(context.provider.userinfo);
  if (!url) throw new TypeError("netsuite: the `userinfo` option (the RESTlet's URL) is required.");
  const answer = record(
    await fetchJson(context.fetch, url, {
      provider: "netsuite",
      headers: { Authorization: bearer(context.tokens), "Content-Type": "application/json", Accept: "application/json" },
    }),
  );
  return answer as NetSuiteProfile;
}

/** `expires_in: "3600"` → 3600. */
function numericExpiry(answer: Record<string, unknown>): Record<string, unknown> {
  const expiresIn = answer.expires_in;
  return typeof expiresIn === "string" && /^\d+$/.test(expiresIn) ? { ...answer, expires_in: Number(expiresIn) } : answer;
}

/**
 * NetSuite as a sign-in provider (`AUTH_NETSUITE_ID`, `AUTH_NETSUITE_SECRET`; `accountID` and
 * `userinfo` in the options). Options win.
 */
export default function NetSuite<P extends NetSuiteProfile = NetSuiteProfile>(options: NetSuiteUserConfig<P> = {}): OAuth2Config<P> {
  const { accountID, ...rest } = options;
  const given = Object.keys(options).length > 0;
  const missing = [accountID ? undefined : "accountID", endpointUrl(options.userinfo) ? undefined : "userinfo"].filter(Boolean);
  // Called bare (a listing the runtime completes from the environment) there is nothing to check yet.
  if (given && missing.length > 0) {
    throw new TypeError(
      `netsuite: the option${missing.length > 1 ? "s" : ""} ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} required: NetSuite({ clientId, clientSecret, accountID: "1234567", userinfo: "<your RESTlet's deployment URL>" }).`,
    );
  }
  const host = accountID ? accountHost(accountID) : undefined;
  const defaults: OAuth2Config<P> = {
    id: "netsuite",
    name: "NetSuite",
    type: "oauth",
    authorization: {
      ...(host ? { url: `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl` } : {}),
      params: { scope: "restlets rest_webservices" },
    },
    token: {
      ...(host ? { url: `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token` } : {}),
      request: (context) => exchangeCode(context, { provider: "netsuite", auth: "client_secret_basic", unwrap: numericExpiry }),
    },
    userinfo: { request: restletUser },
    checks: ["state"],
    profile(profile) {
      return { id: idOf(profile.id), name: text(profile.name), email: text(profile.email), image: null };
    },
    style: { brandColor: "#181a1b", logo: netsuiteLogo },
  };
  return withUserOptions(defaults, rest);
}

export { NetSuite };
