/**
 * Sign in with Azure Active Directory: Auth.js's name for Microsoft Entra ID (Azure AD was
 * renamed), kept so that an application using it keeps its provider id (`azure-ad`), its callback
 * URL (`/callback/azure-ad`), its environment variables (`AUTH_AZURE_AD_ID`, `AUTH_AZURE_AD_SECRET`,
 * `AUTH_AZURE_AD_ISSUER`) and its accounts. Everything else is {@link MicrosoftEntraID}: the v2.0
 * endpoints, `tenantId` (default `common`), `profilePhotoSize`, multi-tenant issuers.
 *
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 */
import type { OIDCConfig } from "../oauth-types.js";
import { azureAdLogo } from "../logos/azure-ad.js";
import MicrosoftEntraID, { type MicrosoftEntraIDOptions, type MicrosoftEntraIDProfile } from "./microsoft-entra-id.js";

export type AzureADProfile = MicrosoftEntraIDProfile;
export type AzureADOptions<P extends AzureADProfile = AzureADProfile> = MicrosoftEntraIDOptions<P>;

/**
 * Azure Active Directory as a sign-in provider: Microsoft Entra ID under the id `azure-ad`.
 * Options win, as for Entra ID.
 */
export default function AzureAD<P extends AzureADProfile = AzureADProfile>(options: AzureADOptions<P> = {}): OIDCConfig<P> {
  const entra = MicrosoftEntraID<P>(options);
  return {
    ...entra,
    id: options.id ?? "azure-ad",
    name: options.name ?? "Azure Active Directory",
    style: { brandColor: "#0072c6", logo: azureAdLogo, ...options.style },
  };
}

export { AzureAD };
