/**
 * What every catalog provider shares: how a user's options are laid over the provider's defaults,
 * and the small, defensive readers that `profile()` and `userinfo.request` use on untrusted JSON.
 * Nothing here does I/O except through the `fetch` a flow hands to an endpoint's `request`.
 */
import { optionsMerged } from "../../symbols.js";
import type {
  AuthorizationEndpoint,
  OAuth2Config,
  OAuthEndpointContext,
  OAuthUserConfig,
  OIDCConfig,
  ProviderFetch,
  TokenEndpoint,
  TokenSet,
  UserinfoEndpoint,
} from "../oauth-types.js";
import type { Profile } from "../../types.js";

type AnyEndpoint = AuthorizationEndpoint | TokenEndpoint | UserinfoEndpoint;

/** What a flow passes to `userinfo.request`. */
export type UserinfoContext = OAuthEndpointContext & { tokens: TokenSet };
/** What a flow passes to `token.request`. */
export type TokenContext = OAuthEndpointContext & { params: URLSearchParams; codeVerifier?: string; redirectUri: string };
type EndpointObject<E> = Exclude<E, string>;

/** `"https://x"` or `{ url: "https://x" }` → the URL, when there is one. */
export function endpointUrl(endpoint: AnyEndpoint | undefined): string | undefined {
  if (typeof endpoint === "string") return endpoint;
  return endpoint?.url;
}

function dropUndefined(params: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Lays an override over a default endpoint: a string override replaces the URL only; an object
 * override replaces `url` and `request` when it sets them and merges `params` key by key (a param
 * set to `undefined` removes the default one).
 */
export function mergeEndpoint<E extends AnyEndpoint>(base: E | undefined, override: E | undefined): E | undefined {
  if (override === undefined) return base;
  if (base === undefined) return override;
  const b = (typeof base === "string" ? { url: base } : base) as EndpointObject<E>;
  const o = (typeof override === "string" ? { url: override } : override) as EndpointObject<E>;
  const merged: Record<string, unknown> = { ...b };
  for (const [key, value] of Object.entries(o)) if (value !== undefined && key !== "params") merged[key] = value;
  if (b.params || o.params) merged.params = dropUndefined({ ...b.params, ...o.params });
  return merged as E;
}

/**
 * A provider's defaults with the user's options on top. Options win, key by key; `undefined`
 * options never erase a default. `authorization`, `token` and `userinfo` merge as
 * {@link mergeEndpoint} says; `client` and `style` merge shallowly; everything else (`checks`,
 * `profile`, `issuer`, ...) is replaced. `original` (default: `options`) is kept as `options`, for
 * factories that take extra options of their own and pass the rest here.
 */
export function withUserOptions<P extends Profile, C extends OAuth2Config<P> | OIDCConfig<P>>(
  defaults: C,
  options: OAuthUserConfig<P>,
  original: OAuthUserConfig<P> = options,
): C {
  const result: Record<string | symbol, unknown> = { ...defaults };
  for (const key of Reflect.ownKeys(options) as (keyof OAuthUserConfig<P>)[]) {
    const value = options[key];
    if (value === undefined) continue;
    switch (key) {
      case "authorization":
      case "token":
      case "userinfo":
        result[key] = mergeEndpoint(defaults[key] as AnyEndpoint | undefined, value as AnyEndpoint);
        break;
      case "client":
      case "style":
        result[key] = { ...(defaults[key] as object | undefined), ...(value as object) };
        break;
      default:
        result[key] = value;
    }
  }
  result.type = defaults.type;
  result.options = original;
  result[optionsMerged] = true;
  return result as C;
}

/** Drops trailing slashes: `https://idp.example.com/` → `https://idp.example.com`. */
export function withoutTrailingSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, "");
}

/** Ensures exactly one trailing slash, for issuers whose identifier ends with one (Auth0, authentik). */
export function withTrailingSlash(url: string | undefined): string | undefined {
  return url === undefined ? undefined : `${url.replace(/\/+$/, "")}/`;
}

// ---------------------------------------------------------------------------------------------
// Readers for untrusted JSON: they never throw, they answer `null`/`undefined` for anything odd.

/** A non-empty string, else `null`. */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** An https URL (what may become a user's `image`), else `null`. */
export function httpsUrl(value: unknown): string | null {
  const s = text(value);
  return s !== null && /^https:\/\//i.test(s) ? s : null;
}

/** An account id as a string (providers send strings or numbers), else `undefined`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  return undefined;
}

/** A plain object, else an empty one (so `record(x).field` is always safe). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Joins name parts that exist with a space; `null` when none does. */
export function joinName(...parts: unknown[]): string | null {
  const joined = parts
    .map(text)
    .filter((part): part is string => part !== null)
    .join(" ")
    .trim();
  return joined === "" ? null : joined;
}

// ---------------------------------------------------------------------------------------------
// For `userinfo.request` / `token.request`: calls through the flow's fetch, failures are errors.

/** `Bearer <access token>`; a token set without an access token cannot call a resource. */
export function bearer(tokens: TokenSet, scheme = "Bearer"): string {
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") {
    throw new TypeError("The token response has no access_token to call the userinfo endpoint with.");
  }
  return `${scheme} ${tokens.access_token}`;
}

/**
 * Calls `url` and returns its JSON body. A non-2xx answer or a body that is not JSON is an error
 * naming the provider; the flow reports it as a failed callback.
 */
export async function fetchJson(
  fetch: ProviderFetch,
  url: string,
  init: RequestInit & { provider: string },
): Promise<unknown> {
  const { provider, ...requestInit } = init;
  const response = await fetch(url, requestInit);
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw new Error(`${provider}: ${requestInit.method ?? "GET"} ${url} answered ${response.status}`, {
      cause: { status: response.status, body: body.slice(0, 500) },
    });
  }
  try {
    return await response.json();
  } catch (cause) {
    throw new Error(`${provider}: ${url} did not answer JSON`, { cause });
  }
}

/**
 * A `GET` of `url` whose query carries a secret (a client secret, a code, an access token), for
 * its JSON body. Unlike {@link fetchJson}, its errors name `what` was called, never the URL.
 */
export async function fetchJsonQuietly(
  fetch: ProviderFetch,
  url: URL,
  init: { provider: string; what: string; headers?: Record<string, string> },
): Promise<unknown> {
  const response = await fetch(url.href, { headers: { Accept: "application/json", ...init.headers } });
  if (!response.ok) throw new Error(`${init.provider}: ${init.what} answered ${response.status}`, { cause: { status: response.status } });
  try {
    return await response.json();
  } catch (cause) {
    throw new Error(`${init.provider}: ${init.what} did not answer JSON`, { cause });
  }
}

/** How {@link exchangeCode} sends the code exchange. */
export interface CodeExchange {
  /** The provider id, for error messages. */
  provider: string;
  /** The token endpoint when the provider's config names none. */
  url: string;
  /** `form` (RFC 6749) or `json` (providers that only read JSON bodies). Default form. */
  body?: "form" | "json";
  /** Whether the exchange repeats the redirect_uri. Default true. */
  redirectUri?: boolean;
  /** The name the provider gives the client id (TikTok: `client_key`). Default `client_id`. */
  clientIdParam?: string;
  /** The name the provider gives the client secret (WeChat: `secret`). Default `client_secret`. */
  clientSecretParam?: string;
  /** Whether the exchange names its `grant_type`. Default true. */
  grantType?: boolean;
  /** `GET`: the parameters go in the token URL's query, with no body (VK, WeChat). Default `POST`. */
  method?: "GET" | "POST";
  headers?: Record<string, string>;
}

/**
 * The authorization code exchange for providers whose token endpoint strays from RFC 6749 (a JSON
 * body, or an answer without `token_type`): client credentials in the body, as these providers
 * want, and a `token_type` of `bearer` filled in when the answer has none. The answer must carry an
 * access token.
 */
export async function exchangeCode(context: TokenContext, how: CodeExchange): Promise<{ tokens: TokenSet }> {
  const { provider, params, codeVerifier, redirectUri } = context;
  const code = params.get("code");
  if (!code) throw new TypeError(`${how.provider}: the callback carries no authorization code.`);
  const key = how.provider.toUpperCase().replace(/-/g, "_");
  if (!provider.clientId || !provider.clientSecret) {
    throw new TypeError(`${how.provider}: clientId and clientSecret are required (AUTH_${key}_ID, AUTH_${key}_SECRET).`);
  }
  const fields: Record<string, string> = {
    [how.clientIdParam ?? "client_id"]: provider.clientId,
    [how.clientSecretParam ?? "client_secret"]: provider.clientSecret,
    code,
  };
  if (how.grantType !== false) fields.grant_type = "authorization_code";
  if (how.redirectUri !== false) fields.redirect_uri = redirectUri;
  if (codeVerifier) fields.code_verifier = codeVerifier;
  const json = how.body === "json";
  const endpoint = endpointUrl(provider.token) ?? how.url;
  let answer: unknown;
  if (how.method === "GET") {
    const url = new URL(endpoint);
    for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
    answer = await fetchJsonQuietly(context.fetch, url, { provider: how.provider, what: "the token endpoint", headers: how.headers });
  } else {
    answer = await fetchJson(context.fetch, endpoint, {
      provider: how.provider,
      method: "POST",
      headers: { "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded", Accept: "application/json", ...how.headers },
      body: json ? JSON.stringify(fields) : new URLSearchParams(fields),
    });
  }
  const tokens = record(answer) as TokenSet;
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") {
    // VK and WeChat answer a refused code with a 200 and an error field: name it, never the URL's secret.
    const error = tokens.error ?? tokens.errcode;
    throw new Error(`${how.provider}: the token response has no access_token.`, error === undefined ? undefined : { cause: { error } });
  }
  if (typeof tokens.token_type !== "string") tokens.token_type = "bearer";
  return { tokens };
}

/** Base64 of bytes, without Node's Buffer (the core also runs on edge runtimes). */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/**
 * The user of an OpenID Connect profile with the standard claims (OpenID Connect Core §5.1): `sub`,
 * `name` (else `given_name family_name`, else `preferred_username`), `email`, an https `picture`.
 */
export function standardClaimsUser(profile: Record<string, unknown>): { id: string | undefined; name: string | null; email: string | null; image: string | null } {
  return {
    id: idOf(profile.sub),
    name: text(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? text(profile.preferred_username),
    email: text(profile.email),
    image: httpsUrl(profile.picture),
  };
}
