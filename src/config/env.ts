/**
 * Environment inference: `APPAUTH_*` variables with their `AUTH_*` aliases, the secret rotation list,
 * and per-provider OAuth credentials. `envDefaults` computes what the environment adds without
 * touching the config; `setEnvDefaults` is the spec's mutating form of the same.
 */
import type { AuthConfig, Provider, ProviderConfig } from "../types.js";

export type Env = Record<string, string | undefined>;

/** The process environment where there is one (Node, Bun, Deno with compat), else an empty object. */
export function processEnv(): Env {
  const proc = (globalThis as { process?: { env?: Env } }).process;
  return proc?.env ?? {};
}

function first(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

/**
 * The secrets the environment provides, in the order Auth.js takes them: the highest-numbered of
 * `AUTH_SECRET_3` .. `AUTH_SECRET_1` first (it encrypts new sessions), `APPAUTH_SECRET` (or
 * `AUTH_SECRET`) last; every one of them still decrypts. An app that rotated under Auth.js keeps
 * encrypting with the same secret after the switch.
 */
export function secretsFromEnv(env: Env): string[] | undefined {
  const list: string[] = [];
  for (const i of [3, 2, 1]) {
    const value = first(env, `APPAUTH_SECRET_${i}`, `AUTH_SECRET_${i}`);
    if (value) list.push(value);
  }
  const main = first(env, "APPAUTH_SECRET", "AUTH_SECRET");
  if (main) list.push(main);
  return list.length ? list : undefined;
}

export function urlFromEnv(env: Env): string | undefined {
  return first(env, "APPAUTH_URL", "AUTH_URL");
}

export function isProduction(env: Env): boolean {
  return env.NODE_ENV === "production";
}

/** `AUTH_TRUST_HOST`, or a deployment platform that sets the host header itself, or not production. */
export function trustHostFromEnv(env: Env): boolean {
  const explicit = first(env, "APPAUTH_TRUST_HOST", "AUTH_TRUST_HOST");
  if (explicit !== undefined) return explicit === "true" || explicit === "1";
  return Boolean(urlFromEnv(env) || env.VERCEL || env.CF_PAGES) || !isProduction(env);
}

/** `github` → `GITHUB`, `microsoft-entra-id` → `MICROSOFT_ENTRA_ID`. */
export function envProviderKey(id: string): string {
  return id.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
}

/** `AUTH_<ID>_ID`, `_SECRET` and `_ISSUER` for provider `id`, as provider options (clientId, clientSecret, issuer). */
export function envProviderOptions(env: Env, id: string): Record<string, string> {
  const key = envProviderKey(id);
  const options: Record<string, string> = {};
  const clientId = first(env, `APPAUTH_${key}_ID`, `AUTH_${key}_ID`);
  const clientSecret = first(env, `APPAUTH_${key}_SECRET`, `AUTH_${key}_SECRET`);
  const issuer = first(env, `APPAUTH_${key}_ISSUER`, `AUTH_${key}_ISSUER`);
  if (clientId) options.clientId = clientId;
  if (clientSecret) options.clientSecret = clientSecret;
  if (issuer) options.issuer = issuer;
  return options;
}

/** What the environment adds to one provider: `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER`, never overriding the config. */
export function providerEnvDefaults(env: Env, provider: ProviderConfig): Partial<Record<string, string>> {
  if (provider.type === "email") {
    // HTTP mail services take their API key from AUTH_<ID>_KEY, as in Auth.js.
    const apiKey = first(env, `APPAUTH_${envProviderKey(provider.id)}_KEY`, `AUTH_${envProviderKey(provider.id)}_KEY`);
    return apiKey && (provider as Record<string, unknown>).apiKey === undefined ? { apiKey } : {};
  }
  if (provider.type !== "oauth" && provider.type !== "oidc") return {};
  const key = envProviderKey(provider.id);
  const patch: Record<string, string> = {};
  const p = provider as Record<string, unknown>;
  const clientId = first(env, `APPAUTH_${key}_ID`, `AUTH_${key}_ID`);
  const clientSecret = first(env, `APPAUTH_${key}_SECRET`, `AUTH_${key}_SECRET`);
  const issuer = first(env, `APPAUTH_${key}_ISSUER`, `AUTH_${key}_ISSUER`);
  if (clientId && p.clientId === undefined) patch.clientId = clientId;
  if (clientSecret && p.clientSecret === undefined) patch.clientSecret = clientSecret;
  if (issuer && p.issuer === undefined) patch.issuer = issuer;
  return patch;
}

/** What the environment adds to the top level of a config (never overriding what the config sets). */
export function envDefaults(env: Env, config: AuthConfig): Partial<AuthConfig> {
  const patch: Partial<AuthConfig> = {};
  if (config.secret === undefined) {
    const secrets = secretsFromEnv(env);
    if (secrets) patch.secret = secrets.length === 1 ? secrets[0] : secrets;
  }
  if (config.trustHost === undefined) patch.trustHost = trustHostFromEnv(env);
  if (config.redirectProxyUrl === undefined) {
    const proxy = first(env, "APPAUTH_REDIRECT_PROXY_URL", "AUTH_REDIRECT_PROXY_URL");
    if (proxy) patch.redirectProxyUrl = proxy;
  }
  const envUrl = urlFromEnv(env);
  if (config.basePath === undefined && envUrl) {
    try {
      const path = new URL(envUrl).pathname.replace(/\/+$/, "");
      if (path) patch.basePath = path;
    } catch {
      // An invalid AUTH_URL is reported when the config is validated.
    }
  }
  return patch;
}

/**
 * Applies environment defaults to `config` in place: secret(s), trustHost, basePath from the URL,
 * redirect proxy, and each OAuth provider's client id, secret and issuer.
 */
export function setEnvDefaults(env: Env, config: AuthConfig): void {
  Object.assign(config, envDefaults(env, config));
  config.providers = config.providers.map((provider: Provider): Provider => {
    if (typeof provider === "function") {
      const resolved = provider();
      const patch = providerEnvDefaults(env, resolved);
      return Object.keys(patch).length ? { ...resolved, ...patch } as ProviderConfig : provider;
    }
    const patch = providerEnvDefaults(env, provider);
    return Object.keys(patch).length ? ({ ...provider, ...patch } as ProviderConfig) : provider;
  });
}
