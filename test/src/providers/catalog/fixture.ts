/**
 * The shape of a catalog provider's fixture (`fixtures/<id>.ts`, one file per provider, collected by
 * `all-fixtures.ts`): one realistic sign-in shaped after the provider's documented examples
 * (`sample`), and what its documentation says its servers are and expect (`facts`), written down
 * independently of the provider module so a full sign-in (`flow.test.ts`, against the stand-in in
 * `flow-idp.ts`) can hold the module to it. Sample values are invented but keep the documented
 * shapes and types (numeric ids stay numbers, HTML-escaped URLs stay escaped).
 *
 * Adding a provider: its module in src/providers/catalog/, its export in index.ts, and
 * `fixtures/<id>.ts` with `export default { sample, facts } satisfies ProviderFixture`.
 */
import type { TokenSet } from "../../../../src/providers/oauth-types.js";
import type { User } from "../../../../src/types.js";

export interface ProviderSample {
  /** Where the profile comes from: the validated ID token, or the userinfo step. */
  source: "id_token" | "userinfo";
  /** The token endpoint's JSON answer (for `id_token` sources, an ID token carrying `claims` goes with it). */
  tokenResponse: TokenSet;
  /** The access token the APIs take, when the token answer does not carry it at its top level (Instagram's `data[0]`). */
  accessToken?: string;
  /** The ID token's claims (`id_token` sources). */
  claims?: Record<string, unknown>;
  /** What the provider's servers answer during the userinfo step, by URL (`"POST <url>"` for a POST). */
  responses?: Record<string, unknown>;
  /** What `profile()` receives: the claims, the userinfo answer, or what `userinfo.request` builds from `responses`. */
  profile: Record<string, unknown>;
  /** What `profile()` must return. */
  user: User;
}

export type Check = "pkce" | "state" | "nonce";
/**
 * How the client authenticates at the token endpoint. `client_secret_query`: id, secret and code in
 * the URL's query, no body; `client_secret_assertion`: the secret as a JWT-bearer `client_assertion`.
 */
export type ClientAuth = "client_secret_basic" | "client_secret_post" | "client_secret_query" | "client_secret_assertion";

/** An expected authorization parameter: the exact value, JSON equal to `json`, or `undefined` for "absent". */
export type ExpectedParam = string | undefined | { json: unknown };

export interface OidcFacts {
  /** The discovery document's URL. */
  discovery: string;
  /** The `issuer` the discovery document states. */
  issuer: string;
  jwks: string;
  userinfo?: string;
  /** Further metadata the provider publishes that bears on the flow. */
  metadata?: Record<string, unknown>;
}

export interface ProviderFacts {
  clientId: string;
  clientSecret: string;
  /** Options besides the credentials (an issuer or tenant that only exists per deployment). */
  options?: Record<string, unknown>;
  oidc?: OidcFacts;
  /** The authorization endpoint, without a query. */
  authorize: string;
  /** The authorization request's `response_type` (default `code`). */
  responseType?: string;
  /** Parameters the authorization request must carry, besides the protocol's own. */
  params: Record<string, ExpectedParam>;
  /** The callback protections the provider supports and the module should use. */
  checks: Check[];
  token: {
    url: string;
    auth: ClientAuth;
    /** How the code exchange is encoded (default form). */
    body?: "form" | "json";
    /** Whether the exchange repeats the redirect_uri (default true). */
    redirectUri?: boolean;
    /**
     * The exchange's `grant_type`: `authorization_code` (default), `jwt-bearer` (RFC 7523, the code
     * sent as `assertion`), or `false` for an exchange that names none.
     */
    grantType?: "authorization_code" | "jwt-bearer" | false;
    /** The name of the client id parameter (TikTok: `client_key`). Default `client_id`. */
    clientIdParam?: string;
    /** The name of the client secret parameter (WeChat: `secret`). Default `client_secret`. */
    clientSecretParam?: string;
    /** `GET` for an exchange made with a GET request, its parameters in the query (`client_secret_query` only). Default `POST`. */
    method?: "GET" | "POST";
    /** Answers JSON only to a client that asks for it (GitHub answers form-encoded otherwise). */
    jsonOnlyWhenAsked?: boolean;
  };
  callback?: {
    /** `POST` for `response_mode=form_post`. */
    method?: "GET" | "POST";
    /** The RFC 9207 `iss` the provider adds to its callbacks. */
    iss?: string;
    /** Other parameters the provider adds. */
    params?: Record<string, string>;
  };
  /** The Authorization scheme its APIs take (default Bearer; empty: the bare token). */
  apiScheme?: string;
  /**
   * Where its APIs take the access token: the Authorization header (default), or the URL (a query
   * parameter or a path segment, as Foursquare and HubSpot document), which the route, keyed by
   * the full URL, then pins.
   */
  apiToken?: "header" | "url";
  /** How its ID tokens are signed (default RS256 with a key from the JWKS; ES256 with a P-256 key from it). */
  idTokenAlg?: "RS256" | "ES256" | "HS256";
  /** Every host a sign-in may talk to. */
  hosts: string[];
}

/** A provider's fixture: the default export of `fixtures/<id>.ts`. */
export interface ProviderFixture {
  sample: ProviderSample;
  facts: ProviderFacts;
}

/** The samples' clock: times in samples are relative to it (the stand-in shifts them to the present). */
export const NOW = 1_735_000_000;
export const bearerTokens = (access_token: string, extra: Partial<TokenSet> = {}): TokenSet => ({
  access_token,
  token_type: "bearer",
  expires_in: 3600,
  ...extra,
});

/** Discovery metadata of a server that takes either client authentication. */
export const BOTH_AUTH = { token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"] };

export const OIDC_SCOPE = { scope: "openid profile email" };
