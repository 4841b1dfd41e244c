/**
 * Sign in with Azure DevOps OAuth (an app registered at app.vsaex.visualstudio.com).
 *
 * Microsoft no longer registers new Azure DevOps OAuth apps and is retiring the ones that exist in
 * favour of Microsoft Entra ID: a new app signs in with `microsoft-entra-id` and asks for Azure
 * DevOps's API as a scope. This provider keeps existing Azure DevOps OAuth apps (and Auth.js
 * configurations) working while they last.
 *
 * - It is not RFC 6749's code flow: the authorization request asks for `response_type=Assertion`,
 *   and the token request (`https://app.vssps.visualstudio.com/oauth2/token`) is RFC 7523's JWT
 *   bearer grant, the code sent as `assertion` and the client secret (itself a JWT) as
 *   `client_assertion`. `token.request` makes that call; the answer's `token_type` is
 *   `jwt-bearer` and its `expires_in` a string, both normalised. No PKCE: `state` guards the callback.
 * - Renewing its tokens takes the same JWT-bearer form, not the standard refresh grant: the
 *   library does not renew them (`refresh: false`); the person signs in again.
 * - Scope `vso.profile` (Auth.js's `scope` option sets another). The profile is
 *   `GET https://app.vssps.visualstudio.com/_apis/profile/profiles/me` with the avatar inlined
 *   (a `data:` URL).
 *
 * @see https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/azure-devops-oauth
 * @see https://learn.microsoft.com/en-us/rest/api/azure/devops/profile/profiles/get
 */
import type { OAuth2Config, OAuthUserConfig, TokenSet } from "../oauth-types.js";
import type { Profile } from "../../types.js";
import { azureDevopsLogo } from "../logos/azure-devops.js";
import { bearer, endpointUrl, fetchJson, idOf, record, text, withUserOptions, type TokenContext, type UserinfoContext } from "./shared.js";

/** `GET /_apis/profile/profiles/me?details=true&coreAttributes=Avatar`. */
export interface AzureDevOpsProfile extends Profile {
  id: string;
  displayName?: string;
  publicAlias?: string;
  emailAddress?: string;
  coreRevision?: number;
  timeStamp?: string;
  revision?: number;
  coreAttributes?: { Avatar?: { value?: { value?: string; contentType?: string } } };
}

export type AzureDevOpsUserConfig<P extends AzureDevOpsProfile = AzureDevOpsProfile> = OAuthUserConfig<P> & {
  /** The Azure DevOps scopes (space-separated), default `vso.profile`. */
  scope?: string;
};

const TOKEN_URL = "https://app.vssps.visualstudio.com/oauth2/token";
const PROFILE_URL = "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=7.1";

async function azureDevOpsToken(context: TokenContext): Promise<{ tokens: TokenSet }> {
  const { provider, params, redirectUri } = context;
  const code = params.get("code");
  if (!code) throw new TypeError("azure-devops: the callback carries no authorization code.");
  if (!provider.clientSecret) throw new TypeError("azure-devops: the client secret is required (AUTH_AZURE_DEVOPS_SECRET).");
  const body = new URLSearchParams({
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: provider.clientSecret,
    grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    assertion: code,
    redirect_uri: redirectUri,
  });
  const tokens = record(
    await fetchJson(context.fetch, endpointUrl(provider.token) ?? TOKEN_URL, {
      provider: "azure-devops",
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body,
    }),
  ) as TokenSet;
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") throw new Error("azure-devops: the token response has no access_token.");
  const expiresIn = Number(tokens.expires_in);
  return { tokens: { ...tokens, token_type: "bearer", ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expires_in: expiresIn } : { expires_in: undefined }) } };
}

async function azureDevOpsUserinfo(context: UserinfoContext): Promise<AzureDevOpsProfile> {
  const url = endpointUrl(context.provider.userinfo) ?? PROFILE_URL;
  return record(await fetchJson(context.fetch, url, { provider: "azure-devops", headers: { Authorization: bearer(context.tokens) } })) as AzureDevOpsProfile;
}

/** The avatar Azure DevOps inlines (base64), as a `data:` URL; `null` when absent or not an image. */
export function azureDevOpsAvatar(profile: Record<string, unknown>): string | null {
  const value = record(record(record(profile.coreAttributes).Avatar).value);
  const data = text(value.value);
  const type = text(value.contentType) ?? "image/png";
  if (data === null || !/^[A-Za-z0-9+/]+={0,2}$/.test(data) || !/^image\/(png|jpeg|gif|webp)$/.test(type)) return null;
  return `data:${type};base64,${data}`;
}

/**
 * Azure DevOps as a sign-in provider (`AUTH_AZURE_DEVOPS_ID`, `AUTH_AZURE_DEVOPS_SECRET`). Options
 * win; `authorization.params` merge with the defaults.
 */
export default function AzureDevOps<P extends AzureDevOpsProfile = AzureDevOpsProfile>(options: AzureDevOpsUserConfig<P> = {}): OAuth2Config<P> {
  const { scope, ...rest } = options;
  const defaults: OAuth2Config<P> = {
    id: "azure-devops",
    name: "Azure DevOps",
    type: "oauth",
    authorization: { url: "https://app.vssps.visualstudio.com/oauth2/authorize", params: { response_type: "Assertion", scope: scope ?? "vso.profile" } },
    token: { url: TOKEN_URL, request: azureDevOpsToken },
    userinfo: { url: PROFILE_URL, request: azureDevOpsUserinfo },
    checks: ["state"],
    refresh: false,
    profile(profile) {
      return {
        id: idOf(profile.id),
        name: text(profile.displayName) ?? text(profile.publicAlias),
        email: text(profile.emailAddress),
        image: azureDevOpsAvatar(profile),
      };
    },
    style: { brandColor: "#0078d7", logo: azureDevopsLogo },
  };
  return withUserOptions(defaults, rest, options);
}

export { AzureDevOps };
