/**
 * The part of `oidc-provider@8`'s API that the demo OP (demo/op) and the test OP
 * (test/helpers/oidc-provider.ts) use, typed from its source (`lib/provider.js`,
 * `lib/helpers/defaults.js`): the package ships no types, and `@types/oidc-provider` is not installed.
 * Only what we call is declared, so a misspelt option or method is a type error here too.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** A JWK as oidc-provider reads it (private keys for `jwks`). */
  export type ProviderJWK = JsonWebKey & { kid?: string; alg?: string; use?: string };

  /** Client metadata (OIDC Dynamic Client Registration §2), as far as we register it. */
  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    client_name?: string;
    application_type?: "web" | "native";
    token_endpoint_auth_method?: string;
    redirect_uris?: string[];
    response_types?: string[];
    grant_types?: string[];
    jwks?: { keys: JsonWebKey[] };
    id_token_signed_response_alg?: string;
    post_logout_redirect_uris?: string[];
    backchannel_logout_uri?: string;
    backchannel_logout_session_required?: boolean;
    scope?: string;
  }

  /** A registered client, as oidc-provider hands it to configuration helpers. */
  export interface Client {
    readonly clientId: string;
    readonly clientName?: string;
    readonly clientAuthMethod: string;
    readonly applicationType: string;
    readonly redirectUris: string[];
    grantTypeAllowed(type: string): boolean;
  }

  export interface RefreshToken {
    isSenderConstrained(): boolean;
  }

  /** `ctx.oidc`: what the provider knows about the request being served. */
  export interface OIDCContext {
    readonly route?: string;
    readonly client?: Client;
    /** The parsed request body, on endpoints that read one (token, revocation, …). */
    readonly body?: Record<string, string | string[] | undefined>;
    readonly params?: Record<string, unknown>;
    readonly entities: { readonly Client?: Client; readonly RefreshToken?: RefreshToken };
  }

  /** The Koa context oidc-provider runs its routes and helpers with. */
  export interface KoaContextWithOIDC {
    readonly path: string;
    readonly method: string;
    readonly host: string;
    status: number;
    type: string;
    body: unknown;
    set(field: string, value: string): void;
    /** A request header (empty string when absent). */
    get(field: string): string;
    /** Undefined until the route's own middleware ran (i.e. before `await next()` in `provider.use`). */
    readonly oidc: OIDCContext | undefined;
  }

  export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  /** `findAccount`'s answer: `claims()` returns every claim, the provider filters by scope and `claims`. */
  export interface Account {
    accountId: string;
    claims(
      use: "id_token" | "userinfo",
      scope: string,
      claims: Record<string, unknown>,
      rejected: string[],
    ): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export type FindAccount = (
    ctx: KoaContextWithOIDC,
    sub: string,
    token?: unknown,
  ) => Account | undefined | Promise<Account | undefined>;

  /** An interaction's outcome, given to `interactionFinished`. */
  export interface InteractionResults {
    login?: { accountId: string; acr?: string; amr?: string[]; remember?: boolean; ts?: number };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  /** The interaction a user is in the middle of (`provider.interactionDetails`). */
  export interface Interaction {
    readonly uid: string;
    readonly returnTo: string;
    readonly exp: number;
    readonly prompt: {
      name: string;
      reasons: string[];
      details: {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
        login_hint?: string;
        [detail: string]: unknown;
      };
    };
    readonly params: { client_id: string; scope?: string; redirect_uri?: string; [param: string]: unknown };
    readonly session?: { accountId: string; uid: string };
    /** The grant already in place for this client and account, if any. */
    readonly grantId?: string;
    readonly lastSubmission?: InteractionResults;
  }

  /** What an account allowed a client to have (models/grant.js). */
  export class Grant {
    constructor(properties?: { accountId?: string; clientId?: string });
    static find(id: string): Promise<Grant | undefined>;
    readonly jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    /** Stores the grant; resolves to its id. */
    save(ttl?: number): Promise<string>;
  }

  /** Storage for one model (Session, Grant, AuthorizationCode, …), `lib/adapters/memory_adapter.js` shape. */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface AdapterPayload {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
    [key: string]: unknown;
  }

  export type TTL = number | ((ctx: KoaContextWithOIDC, token: unknown, client: Client) => number);

  interface Feature {
    enabled: boolean;
  }

  /** The configuration options we set (lib/helpers/defaults.js documents them all). */
  export interface Configuration {
    adapter?: new (modelName: string) => Adapter;
    clients?: ClientMetadata[];
    clientDefaults?: Partial<ClientMetadata>;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    enabledJWA?: { idTokenSigningAlgValues?: string[] };
    cookies?: {
      keys?: string[];
      long?: { httpOnly?: boolean; sameSite?: "lax" | "strict" | "none"; signed?: boolean };
      short?: { httpOnly?: boolean; sameSite?: "lax" | "strict" | "none"; signed?: boolean };
      names?: { session?: string; interaction?: string; resume?: string };
    };
    features?: {
      devInteractions?: Feature;
      userinfo?: Feature;
      revocation?: Feature;
      introspection?: Feature & {
        allowedPolicy?: (ctx: KoaContextWithOIDC, client: Client, token: unknown) => boolean | Promise<boolean>;
      };
      claimsParameter?: Feature;
      backchannelLogout?: Feature;
      clientCredentials?: Feature;
      pushedAuthorizationRequests?: Feature & { requirePushedAuthorizationRequests?: boolean; allowUnregisteredRedirectUris?: boolean };
      requestObjects?: { request?: boolean; requestUri?: boolean; requireSignedRequestObject?: boolean; mode?: "strict" | "lax" };
      jwtResponseModes?: Feature;
      fapi?: Feature & { profile?: "2.0" | "1.0 Final" };
      mTLS?: Feature & {
        certificateBoundAccessTokens?: boolean;
        selfSignedTlsClientAuth?: boolean;
        tlsClientAuth?: boolean;
        getCertificate?: (ctx: KoaContextWithOIDC) => string | undefined;
      };
      rpInitiatedLogout?: Feature & {
        logoutSource?: (ctx: KoaContextWithOIDC, form: string) => void | Promise<void>;
        postLogoutSuccessSource?: (ctx: KoaContextWithOIDC) => void | Promise<void>;
      };
    };
    findAccount?: FindAccount;
    clientAuthMethods?: string[];
    /** Extra metadata for the discovery document (e.g. `mtls_endpoint_aliases`). */
    discovery?: Record<string, unknown>;
    interactions?: { url?: (ctx: KoaContextWithOIDC, interaction: Interaction) => string | Promise<string> };
    issueRefreshToken?: (ctx: KoaContextWithOIDC, client: Client, code: { scopes: Set<string> }) => boolean | Promise<boolean>;
    jwks?: { keys: ProviderJWK[] };
    pkce?: { methods?: ("S256" | "plain")[]; required?: (ctx: KoaContextWithOIDC, client: Client) => boolean };
    renderError?: (ctx: KoaContextWithOIDC, out: Record<string, string>, error: Error) => void | Promise<void>;
    responseTypes?: string[];
    rotateRefreshToken?: boolean | ((ctx: KoaContextWithOIDC) => boolean | Promise<boolean>);
    scopes?: string[];
    ttl?: Partial<
      Record<"AccessToken" | "AuthorizationCode" | "Grant" | "IdToken" | "Interaction" | "RefreshToken" | "Session", TTL>
    >;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Trust `X-Forwarded-*` (Koa's `app.proxy`). */
    proxy: boolean;
    readonly Grant: typeof Grant;
    /** A Node request listener serving every endpoint of the provider. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Adds a Koa middleware in front of the provider's own routes. */
    use(middleware: Middleware): void;
    urlFor(name: string, options?: Record<string, string>): string;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    /** Stores `result` and answers `303` to the authorization endpoint, which resumes the request. */
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: "server_error", listener: (ctx: KoaContextWithOIDC, error: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
