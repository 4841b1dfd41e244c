/**
 * Sign in with Azure AD B2C (Azure Active Directory B2C): OpenID Connect through a user flow
 * (policy) of a B2C tenant.
 *
 * - Each user flow has its own discovery document,
 *   `https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<user flow>/v2.0/.well-known/openid-configuration`,
 *   whose `issuer` is `https://<tenant>.b2clogin.com/<tenant id>/v2.0/`. Pass `tenantId` (the tenant
 *   name, `contoso` of `contoso.onmicrosoft.com`) and `primaryUserFlow` (e.g. `B2C_1_signupsignin`):
 *   the document is read there and its issuer is the one ID tokens must name. Or, as in Auth.js,
 *   pass `issuer` (or `AUTH_AZURE_AD_B2C_ISSUER`) and the document is read under it.
 * - Scope `openid offline_access`. B2C puts the email addresses in the `emails` claim (a list,
 *   when the user flow returns it); the first is used. PKCE is supported.
 *
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview
 */
import type { OAuthUserConfig, OIDCConfig } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { azureAdB2cLogo } from "../logos/azure-ad-b2c.js";
import { idOf, joinName, text, withUserOptions, withoutTrailingSlash } from "./shared.js";

/** The claims of an Azure AD B2C ID token (those the user flow returns). */
export interface AzureADB2CProfile extends Profile {
  sub: string;
  oid?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  /** The user's email addresses. */
  emails?: string[];
  email?: string;
  idp?: string;
  /** The user flow. */
  tfp?: string;
  acr?: string;
  ver?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
  nbf?: number;
  auth_time?: number;
}

export type AzureADB2COptions<P extends AzureADB2CProfile = AzureADB2CProfile> = OAuthUserConfig<P> & {
  /** The B2C tenant's name: `contoso` for `contoso.onmicrosoft.com` and `contoso.b2clogin.com`. */
  tenantId?: string;
  /** The user flow (policy) that signs the person in, e.g. `B2C_1_signupsignin`. */
  primaryUserFlow?: string;
};

const NAME = /^[a-z0-9-]+$/i;
const USER_FLOW = /^[\w-]+$/;

/** The user flow's discovery document, for a tenant name and user flow that can be URL parts. */
export function azureB2cWellKnown(tenantId: string | undefined, userFlow: string | undefined): string | undefined {
  if (!tenantId || !userFlow || !NAME.test(tenantId) || !USER_FLOW.test(userFlow)) return undefined;
  const tenant = tenantId.toLowerCase();
  return `https://${tenant}.b2clogin.com/${tenant}.onmicrosoft.com/${userFlow.toLowerCase()}/v2.0/.well-known/openid-configuration`;
}

/**
 * Azure AD B2C as a sign-in provider (`AUTH_AZURE_AD_B2C_ID`, `AUTH_AZURE_AD_B2C_SECRET`,
 * `AUTH_AZURE_AD_B2C_ISSUER`). Options win; `authorization.params` merge with the default scope.
 */
export default function AzureADB2C<P extends AzureADB2CProfile = AzureADB2CProfile>(options: AzureADB2COptions<P> = {}): OIDCConfig<P> {
  const { tenantId, primaryUserFlow, ...rest } = options;
  const wellKnown = azureB2cWellKnown(tenantId, primaryUserFlow);
  const defaults: OIDCConfig<P> = {
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    type: "oidc",
    ...(wellKnown ? { wellKnown } : {}),
    authorization: { params: { scope: "openid offline_access" } },
    checks: ["pkce", "nonce"],
    profile(profile) {
      const emails = Array.isArray(profile.emails) ? profile.emails : [];
      return {
        id: idOf(profile.sub),
        name: text(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(emails[0]) ?? text(profile.email),
        image: null,
      };
    },
    style: { brandColor: "#0072c6", logo: azureAdB2cLogo },
  };
  return withUserOptions(defaults, { ...rest, issuer: withoutTrailingSlash(rest.issuer) }, options);
}

export { AzureADB2C };
