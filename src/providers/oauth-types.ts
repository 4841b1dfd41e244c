/**
 * The shapes of OAuth 2 and OpenID Connect providers (the spec's `OAuth2Config`/`OIDCConfig`).
 * Every protocol step is done with oauth4webapi; these options say where the endpoints are and
 * how a provider's answers map onto a user and an account.
 */
import type { DPoPOption } from "../oauth/dpop-options.js";
import type { customFetch } from "../symbols.js";
import type { Account, Awaitable, CommonProviderOptions, Profile, ProviderStyle, User } from "../types.js";

/** The token endpoint's answer (RFC 6749 §5.1), plus whatever else the provider sends. */
export interface TokenSet {
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  expires_in?: number;
  /** Computed: seconds since the epoch when the access token expires. */
  expires_at?: number;
  scope?: string;
  [key: string]: unknown;
}

/** The `fetch` every outbound call of a provider uses: its `[customFetch]`, or the global one. */
export type ProviderFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OAuthEndpointContext {
  provider: OAuthProviderConfig;
  fetch: ProviderFetch;
}

/** Where the person is sent to sign in, with extra query parameters. */
export type AuthorizationEndpoint = string | { url?: string; params?: Record<string, string | undefined> };

/** The token endpoint; `request` replaces the standard exchange for providers that do not follow RFC 6749. */
export type TokenEndpoint =
  | string
  | {
      url?: string;
      params?: Record<string, string | undefined>;
      request?: (
        context: OAuthEndpointContext & { params: URLSearchParams; codeVerifier?: string; redirectUri: string },
      ) => Awaitable<{ tokens: TokenSet }>;
    };

/** The userinfo endpoint; `request` replaces the standard call (e.g. to fetch a second resource). */
export type UserinfoEndpoint =
  | string
  | {
      url?: string;
      params?: Record<string, string | undefined>;
      request?: (context: OAuthEndpointContext & { tokens: TokenSet }) => Awaitable<Profile>;
    };

export type OAuthCheck = "pkce" | "state" | "none" | "nonce";

export type TokenEndpointAuthMethod =
  | "client_secret_basic"
  | "client_secret_post"
  | "client_secret_jwt"
  | "private_key_jwt"
  | "tls_client_auth"
  | "self_signed_tls_client_auth"
  | "none";

/** The JWT-secured authorization response modes (JARM): the answer comes back as one signed `response` JWT. */
export type JwtResponseMode = "jwt" | "query.jwt" | "form_post.jwt";

/**
 * Signed request objects (JAR, RFC 9101): the authorization request's parameters travel as one JWT
 * signed with the client's key, so nobody between the application and the provider can change them.
 */
export interface RequestObjectOptions {
  /** The key to sign with (default: `client.privateKey`, the `private_key_jwt` key). A JWK must carry `d`. */
  privateKey?: CryptoKey | (JsonWebKey & { kid?: string });
}

export interface OAuthClientSettings {
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  /** Expected `alg` of ID tokens (default RS256, or what discovery says). */
  id_token_signed_response_alg?: string;
  /**
   * For `private_key_jwt` (RFC 7523 §2.2) and signed request objects: the client's private key (a
   * CryptoKey, or a private JWK with `kid`; its `alg` defaults to RS256 for RSA, ES256 for P-256, EdDSA for Ed25519).
   */
  privateKey?: CryptoKey | (JsonWebKey & { kid?: string });
  /** JARM: the `alg` the provider signs authorization responses with (default RS256, or what discovery says). */
  authorization_signed_response_alg?: string;
  [key: string]: unknown;
}

export interface OAuth2Config<P extends Profile = Profile> extends CommonProviderOptions {
  type: "oauth";
  clientId?: string;
  clientSecret?: string;
  /** The authorization server's issuer identifier; with `wellKnown` or discovery, its metadata. */
  issuer?: string;
  /** The discovery document's URL, when it is not `<issuer>/.well-known/openid-configuration`. */
  wellKnown?: string;
  jwks_endpoint?: string;
  authorization?: AuthorizationEndpoint;
  token?: TokenEndpoint;
  userinfo?: UserinfoEndpoint;
  /** Callback protections. Default `["pkce"]`; `state` is added when a redirect proxy is in use. */
  checks?: OAuthCheck[];
  client?: OAuthClientSettings;
  /** Maps the provider's profile to a user. Default: id, name, email, image from standard claims. */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>;
  /** Picks what is stored of the token set. Default: access/id/refresh token, expires_at, scope, token_type, session_state. */
  account?(tokens: TokenSet): Partial<Account> | undefined | null;
  allowDangerousEmailAccountLinking?: boolean;
  /**
   * Renewing the access token with the refresh_token grant when a session is read and the token has
   * expired or expires within `margin` seconds (default 60). On by default for accounts that have a
   * refresh token and an expiry; `false` turns it off for this provider.
   */
  refresh?: boolean | { margin?: number };
  redirectProxyUrl?: string;
  /**
   * Pushed authorization requests (RFC 9126): the authorization request is sent to the provider's
   * `pushed_authorization_request_endpoint` from the server, with client authentication, and the
   * browser carries only `client_id` and the `request_uri` it got back. Default: on when the
   * provider's metadata says `require_pushed_authorization_requests: true`, off otherwise; `false`
   * against a provider that requires it is a configuration error.
   */
  pushedAuthorizationRequests?: boolean;
  /**
   * Signed request objects (JAR, RFC 9101), sent as `request` (inside the pushed request when PAR is
   * on). `true` signs with `client.privateKey`. Set `authorization.params.response_mode` to `jwt`,
   * `query.jwt` or `form_post.jwt` for JWT-secured responses (JARM), whose signature, `iss`, `aud`
   * and `exp` are checked before anything in them is used.
   */
  requestObject?: boolean | RequestObjectOptions;
  /**
   * Mutual-TLS (RFC 8705): token, PAR and userinfo requests go to the provider's
   * `mtls_endpoint_aliases`. The client certificate itself is presented by the `[customFetch]` you
   * give (e.g. undici's `fetch` with an `Agent` holding `cert` and `key`); pair it with
   * `client.token_endpoint_auth_method: "tls_client_auth"` or `"self_signed_tls_client_auth"`.
   */
  mtls?: boolean;
  /**
   * `"fapi2"`: this provider is held to the FAPI 2.0 Security Profile. The configuration is refused at
   * start-up, naming what is missing, unless it pushes authorization requests, uses PKCE (S256),
   * sender-constrained tokens (`dpop: true`, or `mtls: true`) and `private_key_jwt` or mTLS client
   * authentication. (Named `securityProfile` because `profile` maps the user's profile.)
   */
  securityProfile?: "fapi2";
  /**
   * DPoP (RFC 9449): bind the provider's tokens to a key pair made for each sign-in (`true`: ES256;
   * `{ alg }` for another). The token and refresh requests carry a proof, a `use_dpop_nonce` answer
   * is retried once, the answer must be `token_type: DPoP`, and the key is kept (sealed with the
   * secret) with the account's tokens. Call resource servers with `fetchWithDPoP` from `appauth/dpop`.
   * OpenID Connect providers with the ID token as the profile only. Default off.
   */
  dpop?: DPoPOption;
  style?: ProviderStyle;
  options?: OAuthUserConfig<P>;
  [customFetch]?: ProviderFetch;
}

export interface OIDCConfig<P extends Profile = Profile> extends Omit<OAuth2Config<P>, "type" | "options" | "checks"> {
  type: "oidc";
  /** When false, the profile comes from the userinfo endpoint; an ID token is still validated when returned. */
  idToken?: boolean;
  /**
   * Multi-tenant servers only (Microsoft Entra ID's `common`, `organizations`, `consumers`): their
   * discovery document names an issuer template or another tenant than the configured alias, and
   * each ID token names the user's own tenant. Given an ID token's claims (not yet verified) and
   * the discovered issuer, the issuer that token must carry, or `undefined` to refuse it. The
   * token is then verified as any other (signature, `iss`, `aud`, `nonce`, times). When set, the
   * discovery document may name any issuer on the configured issuer's origin.
   */
  idTokenIssuer?: (claims: Record<string, unknown>, discoveredIssuer: string) => string | undefined;
  /**
   * OpenID Connect RP-Initiated Logout 1.0 (opt-in): signing out also sends the browser to the
   * provider's `end_session_endpoint` (discovered, or given here) with `id_token_hint`, `client_id`,
   * `state` and `post_logout_redirect_uri` = `<basePath>/signout/<id>` (register it at the provider);
   * the provider sends the browser back there and the library goes on to the callback URL.
   */
  rpInitiatedLogout?: boolean | { endSessionEndpoint?: string };
  /**
   * OpenID Connect Back-Channel Logout 1.0 (opt-in; database sessions): the provider posts a
   * `logout_token` to `<basePath>/backchannel-logout/<id>` (register it as the client's
   * `backchannel_logout_uri`); a valid one ends the sessions it names. `maxAge`: seconds a logout
   * token is accepted after its `iat` (default 120).
   */
  backchannelLogout?: boolean | { maxAge?: number };
  checks?: OAuthCheck[];
  options?: OAuthUserConfig<P>;
}

export type OAuthProviderConfig<P extends Profile = Profile> = OAuth2Config<P> | OIDCConfig<P>;

/** What a user passes to a provider factory: any option, none required (credentials come from AUTH_<ID>_*). */
export type OAuthUserConfig<P extends Profile = Profile> = Partial<Omit<OAuth2Config<P>, "options" | "type">> & {
  idToken?: boolean;
};
