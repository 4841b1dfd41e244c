/**
 * The authorization code exchange for token endpoints that a standard OAuth client (oauth4webapi)
 * refuses: answers without `token_type` (Foursquare, Mailchimp, Instagram), with `scope` as a JSON
 * array (Medium), or form-encoded. The request itself is RFC 6749 §4.1.3's, made through the
 * flow's fetch; only the reading of the answer is lenient, and an answer without an access token
 * is still an error.
 */
import type { TokenSet } from "../oauth-types.js";
import { endpointUrl, record, type TokenContext } from "./shared.js";

export interface CodeExchangeOptions {
  /** The provider's name in error messages. */
  provider: string;
  /** How the client authenticates (default `client_secret_post`: credentials in the body). */
  auth?: "client_secret_post" | "client_secret_basic";
  /** Picks the token set out of the answer when the provider wraps it (Instagram's `data[0]`). */
  unwrap?: (answer: Record<string, unknown>) => Record<string, unknown>;
}

/** RFC 6749 §2.3.1: each part form-encoded, joined with a colon, base64-encoded. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const form = (part: string) => encodeURIComponent(part).replace(/%20/g, "+");
  return `Basic ${btoa(`${form(clientId)}:${form(clientSecret)}`)}`;
}

/** The answer as an object: JSON, or a form-encoded body (some providers answer that way). */
async function readAnswer(response: Response, provider: string): Promise<Record<string, unknown>> {
  const body = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  try {
    return record(JSON.parse(body));
  } catch (cause) {
    throw new Error(`${provider}: the token endpoint did not answer JSON`, { cause });
  }
}

/**
 * Exchanges the callback's code at the provider's `token` URL and returns the token set:
 * `token_type` defaults to `bearer` when absent, a `scope` array is joined with spaces, and an
 * error answer (non-2xx, or an `error` field) or one without `access_token` throws.
 */
export async function exchangeCode(context: TokenContext, options: CodeExchangeOptions): Promise<{ tokens: TokenSet }> {
  const { provider, params, codeVerifier, redirectUri } = context;
  const name = options.provider;
  const code = params.get("code");
  if (!code) throw new TypeError(`${name}: the callback carries no authorization code.`);
  const url = endpointUrl(provider.token);
  if (!url) throw new TypeError(`${name}: no token endpoint.`);
  if (!provider.clientId || !provider.clientSecret) throw new TypeError(`${name}: clientId and clientSecret are required.`);
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri });
  if (codeVerifier) body.set("code_verifier", codeVerifier);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  if (options.auth === "client_secret_basic") {
    headers.Authorization = basicCredentials(provider.clientId, provider.clientSecret);
  } else {
    body.set("client_id", provider.clientId);
    body.set("client_secret", provider.clientSecret);
  }
  const response = await context.fetch(url, { method: "POST", headers, body });
  const answer = await readAnswer(response, name);
  if (!response.ok || answer.error !== undefined) {
    throw new Error(`${name}: the token endpoint refused the code (${response.status})`, {
      cause: { status: response.status, error: answer.error },
    });
  }
  const tokens = { ...(options.unwrap ? options.unwrap(answer) : answer) } as TokenSet;
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") throw new Error(`${name}: the token response has no access_token.`);
  if (typeof tokens.token_type !== "string") tokens.token_type = "bearer";
  if (Array.isArray(tokens.scope)) tokens.scope = tokens.scope.filter((s) => typeof s === "string").join(" ");
  else if (tokens.scope !== undefined && typeof tokens.scope !== "string") delete tokens.scope;
  return { tokens };
}
