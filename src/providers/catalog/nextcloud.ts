/**
 * Sign in with Nextcloud: OAuth 2 against your Nextcloud server (an OAuth 2.0 client added under
 * Administration settings → Security).
 *
 * - The server's URL (`https://cloud.example.com`) is the `issuer`, as in Auth.js: pass it or set
 *   `AUTH_NEXTCLOUD_ISSUER`. Without it there are no endpoints and the sign-in is refused at start-up.
 * - Endpoints `<issuer>/index.php/apps/oauth2/authorize` and `.../apps/oauth2/api/v1/token` (the
 *   `index.php` form works with and without pretty URLs). No scopes; `state` protects the callback.
 * - The user is read from the OCS API, `GET <issuer>/ocs/v2.php/cloud/user?format=json` with the
 *   `OCS-APIRequest: true` header it requires; its answer wraps the user in `ocs.data`, which
 *   `userinfo.request` unwraps. The picture is the server's avatar URL for the user.
 *
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 * @see https://docs.nextcloud.com/server/latest/developer_manual/client_apis/OCS/ocs-api-overview.html
 */
import type { OAuth2Config, OAuthUserConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { nextcloudLogo } from "../logos/nextcloud.js";
import { bearer, endpointUrl, fetchJson, httpsUrl, idOf, record, text, withUserOptions, withoutTrailingSlash, type UserinfoContext } from "./shared.js";

/** `ocs.data` of `GET /ocs/v2.php/cloud/user` (the fields sign-in uses and a few more). */
export interface NextcloudProfile extends Profile {
  id: string;
  displayname?: string | null;
  "display-name"?: string | null;
  email?: string | null;
  enabled?: boolean;
  groups?: string[];
  language?: string;
  locale?: string;
  quota?: Record<string, unknown>;
}

async function nextcloudUserinfo(context: UserinfoContext): Promise<NextcloudProfile> {
  const url = endpointUrl(context.provider.userinfo);
  if (!url) throw new TypeError("nextcloud: no userinfo endpoint (set issuer).");
  const answer = record(
    await fetchJson(context.fetch, url, {
      provider: "nextcloud",
      headers: { Authorization: bearer(context.tokens), "OCS-APIRequest": "true", Accept: "application/json" },
    }),
  );
  return record(record(answer.ocs).data) as NextcloudProfile;
}

/**
 * Nextcloud as a sign-in provider (`AUTH_NEXTCLOUD_ID`, `_SECRET`, `_ISSUER`). Options win;
 * endpoints follow `issuer`.
 */
export default function Nextcloud<P extends NextcloudProfile = NextcloudProfile>(options: OAuthUserConfig<P> = {}): OAuth2Config<P> {
  const issuer = withoutTrailingSlash(options.issuer);
  const defaults: OAuth2Config<P> = {
    id: "nextcloud",
    name: "Nextcloud",
    type: "oauth",
    ...(issuer
      ? {
          authorization: { url: `${issuer}/index.php/apps/oauth2/authorize` },
          token: { url: `${issuer}/index.php/apps/oauth2/api/v1/token` },
          userinfo: { url: `${issuer}/ocs/v2.php/cloud/user?format=json`, request: nextcloudUserinfo },
        }
      : { authorization: {}, userinfo: { request: nextcloudUserinfo } }),
    checks: ["state"],
    profile(profile) {
      const id = idOf(profile.id);
      return {
        id,
        name: text(profile.displayname) ?? text(profile["display-name"]) ?? text(profile.id),
        email: text(profile.email),
        image: id !== undefined && issuer ? httpsUrl(`${issuer}/avatar/${encodeURIComponent(id)}/512`) : null,
      };
    },
    style: { brandColor: "#0082c9", logo: nextcloudLogo },
  };
  return withUserOptions(defaults, { ...options, issuer }, options);
}

export { Nextcloud };
