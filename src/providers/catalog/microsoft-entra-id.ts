/**
 * Sign in with Microsoft Entra ID (work, school and personal Microsoft accounts): OpenID Connect
 * on the v2.0 endpoints.
 *
 * How the issuer is built: `issuer` when given, else
 * `https://login.microsoftonline.com/<tenantId>/v2.0` with `tenantId` defaulting to `"common"`.
 *
 * - A single-tenant app passes its directory (tenant) id as `tenantId` (a GUID; a domain name
 *   works for the endpoints but the discovered issuer always contains the GUID), or sets `issuer`.
 *   (`AUTH_MICROSOFT_ENTRA_ID_ISSUER`). Discovery then yields exactly that issuer and ID tokens are
 *   checked against it: nothing special.
 * - `common`, `organizations` and `consumers` are not issuers but aliases for "any tenant" (of a
 *   kind). Their discovery document's `issuer` is the template
 *   `https://login.microsoftonline.com/{tenantid}/v2.0`, and each ID token's `iss` names the
 *   user's own tenant. A flow validating such a token substitutes the token's `tid` claim for
 *   `{tenantid}` and compares `iss` with the result (and should check `tid` against an allow-list
 *   in the `signIn` callback when not every tenant may sign in). {@link isMultiTenantIssuer} tells
 *   the cases apart; {@link entraIssuerForTenant} builds the expected issuer.
 * - Scope `openid profile email User.Read`; the profile is the ID token (`sub` — pairwise per app —,
 *   `name`, `email` when the account has one, `preferred_username`, `oid`, `tid`).
 * - `profilePhotoSize` (48, 64, 96, ...) also fetches the user's photo from Microsoft Graph through
 *   the provider's fetch and inlines it as a `data:` URL; this reads the profile from Graph's
 *   userinfo endpoint (`idToken: false`). Keep the size small: the image lands in the session.
 *
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { microsoftEntraIdLogo } from "../logos/microsoft-entra-id.js";
import { base64, bearer, endpointUrl, fetchJson, idOf, record, text, withUserOptions, type UserinfoContext } from "./shared.js";

/** The claims of an Entra ID v2.0 ID token (or of Graph's OIDC userinfo answer). */
export interface MicrosoftEntraIDProfile extends Profile {
  sub: string;
  /** The user's object id in their tenant (stable across apps of one tenant). */
  oid?: string;
  /** The tenant the user signed in from. */
  tid?: string;
  name?: string;
  /** The sign-in name: mutable, may not be an email, never verified. Not used as the email. */
  preferred_username?: string;
  email?: string;
  given_name?: string;
  family_name?: string;
  /** With `profilePhotoSize`: the photo as a `data:image/...;base64,` URL. */
  picture?: string;
  ver?: "2.0";
  iss?: string;
  aud?: string;
  iat?: number;
  exp?: number;
  nonce?: string;
}

export interface MicrosoftEntraIDOptions<P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile>
  extends OAuthUserConfig<P> {
  /** A tenant GUID, or `common` (default), `organizations`, `consumers`. Ignored when `issuer` is set. */
  tenantId?: string;
  /** Fetch the Graph profile photo at this size (pixels, e.g. 48 or 64) and use it as the image. */
  profilePhotoSize?: number;
}

const LOGIN_HOST = "https://login.microsoftonline.com";
const MULTI_TENANT = new Set(["common", "organizations", "consumers", "{tenantid}"]);

/** `https://login.microsoftonline.com/<tenant>/v2.0`. */
export function entraIssuerForTenant(tenantId: string): string {
  return `${LOGIN_HOST}/${encodeURIComponent(tenantId).replace("%7Btenantid%7D", "{tenantid}")}/v2.0`;
}

/** True for an issuer that stands for many tenants (`common`, `organizations`, `consumers`, or the `{tenantid}` template). */
export function isMultiTenantIssuer(issuer: string | undefined): boolean {
  const match = issuer?.match(/^https:\/\/login\.microsoftonline\.com\/([^/]+)\/v2\.0\/?$/i);
  return match?.[1] !== undefined && MULTI_TENANT.has(match[1].toLowerCase());
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * For a multi-tenant alias: the issuer an ID token must name, `https://login.microsoftonline.com/<tid>/v2.0`
 * with its own `tid`, when discovery stated the `{tenantid}` template or that very tenant (`consumers`).
 */
function tenantIssuer(claims: Record<string, unknown>, discoveredIssuer: string): string | undefined {
  const tid = claims.tid;
  if (typeof tid !== "string" || !GUID.test(tid)) return undefined;
  const expected = entraIssuerForTenant(tid.toLowerCase());
  return discoveredIssuer === entraIssuerForTenant("{tenantid}") || discoveredIssuer === expected ? expected : undefined;
}

function photoUserinfo(size: number) {
  return async function request(context: UserinfoContext): Promise<MicrosoftEntraIDProfile> {
    const authorization = bearer(context.tokens);
    const url = endpointUrl(context.provider.userinfo) ?? "https://graph.microsoft.com/oidc/userinfo";
    const profile = record(
      await fetchJson(context.fetch, url, { provider: "microsoft-entra-id", headers: { Authorization: authorization } }),
    ) as MicrosoftEntraIDProfile;
    // The Graph photo URL in `picture` needs a token; replace it with the bytes, or drop it.
    delete profile.picture;
    try {
      const response = await context.fetch(`https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`, {
        headers: { Authorization: authorization },
      });
      const type = response.headers.get("content-type") ?? "image/jpeg";
      if (response.ok && /^image\/(jpeg|png|gif|webp)$/i.test(type.split(";")[0]!.trim())) {
        const bytes = new Uint8Array(await response.arrayBuffer());
        profile.picture = `data:${type.split(";")[0]!.trim()};base64,${base64(bytes)}`;
      }
    } catch {
      // No photo: the user has none, or Graph did not answer. Sign-in does not depend on it.
    }
    return profile;
  };
}

/**
 * Microsoft Entra ID as a sign-in provider (`AUTH_MICROSOFT_ENTRA_ID_ID`, `..._SECRET`,
 * `..._ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function MicrosoftEntraID<P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile>(
  options: MicrosoftEntraIDOptions<P> = {},
): OIDCConfig<P> {
  const { tenantId, profilePhotoSize, ...rest } = options;
  const size = typeof profilePhotoSize === "number" && profilePhotoSize > 0 ? Math.floor(profilePhotoSize) : undefined;
  const issuer = entraIssuerForTenant(tenantId ?? "common");
  const defaults: OIDCConfig<P> = {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    issuer,
    ...(isMultiTenantIssuer(rest.issuer ?? issuer) ? { idTokenIssuer: tenantIssuer } : {}),
    authorization: { params: { scope: "openid profile email User.Read" } },
    ...(size
      ? { idToken: false, userinfo: { url: "https://graph.microsoft.com/oidc/userinfo", request: photoUserinfo(size) } }
      : {}),
    profile(profile) {
      const picture = text(profile.picture);
      return {
        id: idOf(profile.sub),
        name: text(profile.name),
        email: text(profile.email),
        image: picture !== null && /^data:image\//.test(picture) ? picture : null,
      };
    },
    style: { brandColor: "#0078d4", logo: microsoftEntraIdLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { MicrosoftEntraID };
