/**
 * What a configuration does with the tokens of the OAuth/OIDC accounts people sign in with: which
 * providers' access tokens are refreshed (and how early), which end the provider's session on
 * sign-out (RP-initiated logout), which accept back-channel logout tokens; and whether refreshes
 * are coordinated through the adapter (one grant at a time across processes sharing the store).
 * Checked once, when the configuration is resolved.
 */
import { InvalidConfiguration, MissingAdapterMethods } from "../errors.js";
import { checkTransport } from "../oauth/transport.js";
import type { OAuthProviderConfig } from "../providers/oauth-types.js";
import type { Adapter, LoggerInstance, ProviderConfig } from "../types.js";
import { checkDpopOption } from "../oauth/dpop-options.js";

/** Seconds before `expires_at` at which an access token counts as expired. */
export const DEFAULT_REFRESH_MARGIN = 60;
/** Seconds a back-channel logout token is accepted after its `iat`. */
export const DEFAULT_LOGOUT_TOKEN_MAX_AGE = 120;

export interface Federation {
  /** providerId → refresh margin in seconds, for providers whose access tokens are refreshed. */
  refresh: Readonly<Record<string, number>>;
  /** Providers whose session is ended on sign-out, with an explicit end_session_endpoint when given. */
  rpInitiatedLogout: ReadonlyMap<string, { endSessionEndpoint?: string }>;
  /** Providers that accept back-channel logout tokens, with their maximum age in seconds. */
  backchannelLogout: ReadonlyMap<string, { maxAge: number }>;
  /** Whether refreshed tokens are stored in the account through the adapter (getAccount + updateAccount). */
  storesTokens: boolean;
  /** Whether one refresh at a time is leased through the adapter (acquireLease + releaseLease). */
  leases: boolean;
}

const has = (adapter: Adapter | undefined, method: string) =>
  typeof (adapter as Record<string, unknown> | undefined)?.[method] === "function";

function isOAuth(provider: ProviderConfig): provider is ProviderConfig & OAuthProviderConfig {
  return provider.type === "oauth" || provider.type === "oidc";
}

export function resolveFederation(
  providers: ProviderConfig[],
  adapter: Adapter | undefined,
  strategy: "jwt" | "database",
  logger: LoggerInstance,
): Federation {
  const refresh: Record<string, number> = {};
  const rpInitiatedLogout = new Map<string, { endSessionEndpoint?: string }>();
  const backchannelLogout = new Map<string, { maxAge: number }>();
  // Database sessions find their account through the links their records keep, which only adapters
  // with appauth's session extension store (see issueDatabaseSession).
  const storesTokens = has(adapter, "getAccount") && has(adapter, "updateAccount") && has(adapter, "deleteSessionsByAccount");
  const explicitRefresh: string[] = [];

  for (const provider of providers.filter(isOAuth)) {
    const where = `providers (${provider.id})`;
    checkDpopOption(provider);
    const option = provider.refresh ?? true;
    if (option !== false) {
      const margin = typeof option === "object" ? (option.margin ?? DEFAULT_REFRESH_MARGIN) : DEFAULT_REFRESH_MARGIN;
      if (!(Number.isFinite(margin) && margin >= 0)) {
        throw new InvalidConfiguration(`${where}: refresh.margin: expected zero or a positive number of seconds.`);
      }
      refresh[provider.id] = margin;
      if (provider.refresh !== undefined) explicitRefresh.push(provider.id);
    }
    const oidc = provider as { rpInitiatedLogout?: boolean | { endSessionEndpoint?: string }; backchannelLogout?: boolean | { maxAge?: number } };
    if (oidc.rpInitiatedLogout) {
      if (provider.type !== "oidc") throw new InvalidConfiguration(`${where}: rpInitiatedLogout is an OpenID Connect feature (type "oidc").`);
      const endSessionEndpoint = typeof oidc.rpInitiatedLogout === "object" ? oidc.rpInitiatedLogout.endSessionEndpoint : undefined;
      if (endSessionEndpoint !== undefined) checkTransport(endSessionEndpoint, "rpInitiatedLogout.endSessionEndpoint", provider.id);
      // A database session's ID token (the id_token_hint) is read from its stored account.
      const missing = ["getAccount", "deleteSessionsByAccount"].filter((m) => !has(adapter, m));
      if (strategy === "database" && missing.length) {
        throw new MissingAdapterMethods(`adapter: rpInitiatedLogout (${provider.id}) with database sessions needs the adapter methods ${missing.join(", ")}.`);
      }
      rpInitiatedLogout.set(provider.id, endSessionEndpoint ? { endSessionEndpoint } : {});
    }
    if (oidc.backchannelLogout) {
      if (provider.type !== "oidc") throw new InvalidConfiguration(`${where}: backchannelLogout is an OpenID Connect feature (type "oidc").`);
      if (strategy !== "database") {
        throw new InvalidConfiguration(`${where}: backchannelLogout ends database sessions; set session.strategy to "database".`);
      }
      const missing = ["deleteSessionsByAccount", "acquireLease"].filter((m) => !has(adapter, m));
      if (missing.length) {
        throw new MissingAdapterMethods(`adapter: backchannelLogout (${provider.id}) needs the adapter methods ${missing.join(", ")}.`);
      }
      const maxAge = typeof oidc.backchannelLogout === "object" ? (oidc.backchannelLogout.maxAge ?? DEFAULT_LOGOUT_TOKEN_MAX_AGE) : DEFAULT_LOGOUT_TOKEN_MAX_AGE;
      if (!(Number.isFinite(maxAge) && maxAge > 0)) {
        throw new InvalidConfiguration(`${where}: backchannelLogout.maxAge: expected a positive number of seconds.`);
      }
      backchannelLogout.set(provider.id, { maxAge });
    }
  }

  // A database session's tokens live in the account: without a way to read and write it there is
  // nothing to refresh. Asked for explicitly, that is a fault; by default, it is only switched off.
  if (strategy === "database" && Object.keys(refresh).length && !storesTokens) {
    if (explicitRefresh.length) {
      throw new MissingAdapterMethods(
        `adapter: refresh (${explicitRefresh.join(", ")}) with database sessions needs the adapter methods getAccount, updateAccount, deleteSessionsByAccount.`,
      );
    }
    logger.warn("RefreshDisabled", "The adapter has no getAccount/updateAccount/deleteSessionsByAccount: access tokens of database sessions are not refreshed.");
    for (const id of Object.keys(refresh)) delete refresh[id];
  }

  return {
    refresh,
    rpInitiatedLogout,
    backchannelLogout,
    storesTokens,
    leases: storesTokens && has(adapter, "acquireLease") && has(adapter, "releaseLease"),
  };
}
