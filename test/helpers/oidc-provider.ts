/**
 * A real OpenID Provider (`oidc-provider@8`) on a loopback port, for testing appauth's OAuth/OIDC
 * flows against the genuine article instead of a fake. `authorize()` plays the browser: it follows
 * the OP's redirects with its own cookie jar, logs an account in and consents through the OP's
 * interaction endpoints, and hands back where the OP finally sends the user (the RP's redirect_uri).
 * `browser()` is a browser that keeps its OP session between calls, for `prompt=none` and
 * RP-initiated logout; `backchannelDeliveries` records the logout tokens the OP POSTs to clients.
 *
 * ```ts
 * const op = await startTestProvider();
 * const back = await op.authorize(authorizationUrlTheRpBuilt, { accountId: "ada" });
 * // back.url === "http://localhost:3000/auth/callback/oidc?code=…&state=…&iss=…"
 * await op.close();
 * ```
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import Provider, { type Account, type Adapter, type AdapterPayload } from "oidc-provider";
import type { TokenEndpointAuthMethod } from "../../src/providers/oauth-types.js";
import { BASE_URL } from "./config.js";
import { isDeletion, setCookiesOf } from "./set-cookie.js";
import { grantWhatWasAsked, readBody } from "../../demo/op/interactions.js";

export interface TestClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  redirect_uris: string[];
  response_types?: string[];
  /** Default `["authorization_code", "refresh_token"]`, so `offline_access` works without more setup. */
  grant_types?: string[];
  jwks?: { keys: JsonWebKey[] };
  id_token_signed_response_alg?: string;
  /** Where RP-initiated logout may send the browser back to (exact match). */
  post_logout_redirect_uris?: string[];
  /**
   * Where the OP POSTs a `logout_token` when an OP session this client took part in ends (Back-Channel
   * Logout 1.0). Plain `http://` (loopback included) is accepted: oidc-provider only asks for a web URI.
   */
  backchannel_logout_uri?: string;
  /**
   * With `backchannel_logout_uri`: put `sid` in ID tokens and logout tokens. oidc-provider adds `sid`
   * to neither otherwise (default false), so an RP can then only match a logout token by `sub`.
   */
  backchannel_logout_session_required?: boolean;
  /** PAR (RFC 9126) for this client's every authorization request, whatever the OP's policy. */
  require_pushed_authorization_requests?: boolean;
  /** Signed request objects (JAR, RFC 9101) required of this client. */
  require_signed_request_object?: boolean;
  /** The one algorithm this client's request objects must be signed with. */
  request_object_signing_alg?: string;
  /** How the OP signs this client's JARM responses (default RS256). */
  authorization_signed_response_alg?: string;
  /** RFC 8705 §3: access tokens bound to the client certificate the token request came with. */
  tls_client_certificate_bound_access_tokens?: boolean;
}

/** Switches for behaviour that differs between real OPs. */
export interface TestProviderFeatures {
  /**
   * Put the claims a scope asks for (email, name, …) in the ID token as well as in UserInfo, as most
   * real OPs do. Default true; false keeps OIDC Core §5.4's reading (UserInfo only), oidc-provider's default.
   */
  claimsInIdToken?: boolean;
  /** Who must send PKCE: only public clients (default), or every client. */
  pkceRequired?: "public" | "always";
  /** Who gets a new refresh token each time it uses one (the old one then fails): public clients (default), all, none. */
  rotateRefreshToken?: "public" | "always" | "never";
  /**
   * Lifetimes in seconds; short by default (codes 60 s, access and ID tokens 5 min, refresh tokens 1 h).
   * The token endpoint's `expires_in` is `AccessToken` exactly, for the code grant and every refresh.
   */
  ttl?: Partial<Record<"AccessToken" | "AuthorizationCode" | "IdToken" | "RefreshToken" | "Session" | "Grant" | "Interaction", number>>;
  /**
   * Pushed authorization requests (RFC 9126) at `/request`: on by default (oidc-provider's own
   * default), `"required"` advertises `require_pushed_authorization_requests` and refuses any other
   * authorization request, `false` takes the endpoint away.
   */
  pushedAuthorizationRequests?: boolean | "required";
  /** Request objects by value (`request`, RFC 9101); `"required"` makes every request carry a signed one. */
  requestObjects?: boolean | "required";
  /** JWT-secured authorization responses (JARM): `response_mode` `jwt`, `query.jwt`, `form_post.jwt`. */
  jwtResponseModes?: boolean;
  /**
   * oidc-provider's FAPI behaviours: with `"2.0"` PKCE S256 is required of everyone, a request
   * object must carry `exp`, `nbf` (at most an hour apart) and `aud`, and parameters outside it are ignored.
   */
  fapi?: "2.0";
  /**
   * mTLS (RFC 8705) behind a TLS-terminating proxy at `endpointAliasesAt` (an https origin that
   * forwards to this OP): the discovery document names the proxy's token, PAR and userinfo
   * endpoints as `mtls_endpoint_aliases`, the OP takes the client certificate from the proxy's
   * `x-ssl-client-cert` header (URL-encoded PEM; trusted as-is, so only for tests on loopback),
   * accepts `self_signed_tls_client_auth` and binds access tokens to the certificate when the client asks.
   */
  mtls?: { endpointAliasesAt: string };
  /**
   * DPoP (RFC 9449, oidc-provider's `features.dPoP`): the token endpoint binds tokens to a proof's key
   * (`token_type: DPoP`, `cnf.jkt` on introspection). `nonces: true` makes it demand a server nonce
   * (`use_dpop_nonce`, with a `DPoP-Nonce` header) in every proof.
   */
  dpop?: { nonces?: boolean };
}

/** The OP set up as a FAPI 2.0 authorization server (PAR required, signed request objects, JARM). */
export const FAPI2_FEATURES: TestProviderFeatures = {
  pushedAuthorizationRequests: "required",
  requestObjects: true,
  jwtResponseModes: true,
  fapi: "2.0",
};

export interface TestProviderOptions {
  clients?: TestClient[];
  /** accountId → claims. The accountId is the `sub` unless the claims name another. */
  accounts?: Record<string, Record<string, unknown>>;
  /** Default `127.0.0.1`. */
  host?: "127.0.0.1" | "localhost";
  features?: TestProviderFeatures;
}

/** A private JWK the OP signs with; `kid` is what its tokens' headers name. */
export type SigningKey = JsonWebKey & { kid: string; alg: "RS256" | "ES256"; use: "sig" };

/** Where the OP sent the user after the authorization request: a redirect, or a `form_post` form. */
export type AuthorizationOutcome =
  | { url: string; method: "GET" }
  | { url: string; method: "POST"; form: Record<string, string> };

/** Where RP-initiated logout left the browser: sent back off the OP (the post_logout_redirect_uri, with `state`), or on the OP's own "signed out" page. */
export type EndSessionOutcome = { url: string } | { page: "signed-out" };

/** A browser holding one cookie jar for the OP, so its OP session lives from one call to the next. */
export interface TestBrowser {
  /**
   * As `TestProvider.authorize`, with this browser's cookies: while its OP session lives the OP asks
   * nobody to log in (`prompt=none` succeeds; `accountId` only matters when the OP shows its login
   * prompt), and after `endSession` a `prompt=none` request comes back with `error=login_required`.
   */
  authorize(authorizationUrl: string, opts?: { accountId?: string; deny?: boolean }): Promise<AuthorizationOutcome>;
  /**
   * Visits an end_session URL the RP built (`…/session/end?id_token_hint=…&post_logout_redirect_uri=…&state=…`),
   * clicks "Sign out" on the OP's confirmation page (which ends the whole OP session: every client in
   * it with a `backchannel_logout_uri` gets a logout token before this resolves), and follows the OP's
   * redirects. An OP error (unregistered post_logout_redirect_uri, id_token_hint from another OP, …)
   * rejects with the OP's `error` and `error_description`.
   */
  endSession(endSessionUrl: string): Promise<EndSessionOutcome>;
  /** The user signing out at the OP itself: `endSession` of the bare end_session endpoint, no hints; `{ page: "signed-out" }`. */
  signOutAtProvider(): Promise<EndSessionOutcome>;
}

/** One logout token the OP POSTed (form field `logout_token`) to a client's `backchannel_logout_uri`. */
export interface BackchannelDelivery {
  clientId: string;
  uri: string;
  /** The JWT as sent (`typ: logout+jwt`, signed like the client's ID tokens, valid 2 min), to replay or inspect. */
  logoutToken: string;
  sub: string;
  /** Only for clients with `backchannel_logout_session_required`. */
  sid?: string;
  /**
   * `delivered`: the client answered 200 or 204. `failed`: any other status, no answer within
   * oidc-provider's 2.5 s, or no connection; the OP does not retry, and the logout happens regardless.
   */
  outcome: "delivered" | "failed";
  /** The client's HTTP status, when it answered and that was the failure. */
  status?: number;
  error?: string;
}

export interface TestProvider {
  /** e.g. `http://127.0.0.1:PORT` (loopback, plain http). */
  issuer: string;
  clients: TestClient[];
  /** The OP's signing keys as private JWKs (RS256 first, then ES256), so tests can forge or alter ID tokens. */
  signingKeys: SigningKey[];
  /**
   * Rotates the OP's signing keys, as an OP does: from now on it signs with new keys (new `kid`s) and
   * its JWKS lists only them. The OP restarts on the same issuer with the new keys; its sessions,
   * grants and codes stay. `signingKeys` then holds the new keys.
   */
  rotateSigningKeys(): void;
  /**
   * Drives the authorization request the RP sent the browser to (a full URL), logs `accountId` in
   * (default: the first account) and consents to what was asked, without a browser. Every call is a
   * fresh browser: no OP session is carried over. Returns the URL the OP redirects back to (the RP's
   * redirect_uri with code/state/iss, or error), or for `response_mode=form_post` the form's action
   * and fields. An OP error page that does not go back to the RP (unknown client, bad redirect_uri)
   * rejects with the OP's error. Same as `browser().authorize(…)`.
   */
  authorize(authorizationUrl: string, opts?: { accountId?: string; deny?: boolean }): Promise<AuthorizationOutcome>;
  /** A new browser with an empty cookie jar, which keeps its OP session across its calls. */
  browser(): TestBrowser;
  /**
   * Every back-channel logout the OP attempted, in order, complete by the time `endSession` resolves.
   * Tests may empty it (`length = 0`).
   */
  backchannelDeliveries: BackchannelDelivery[];
  /**
   * Revokes a refresh token at the OP's revocation endpoint (RFC 7009), authenticating as `client`
   * (a public client sends only its client_id). oidc-provider then revokes the whole grant: the
   * refresh token and every access token from it fail from now on (`invalid_grant`, inactive). The
   * endpoint answers 200 to an unknown token too, so this resolves for one; it rejects when the OP
   * refuses the request (client authentication failed, the token belongs to another client).
   */
  revokeRefreshToken(refreshToken: string, client: TestClient): Promise<void>;
  /** How many requests the token endpoint saw, by grant_type (failed ones included). */
  grants: Record<string, number>;
  /** How many token requests the OP refused with `use_dpop_nonce` (features.dpop.nonces). */
  dpopNonceChallenges: { count: number };
  /**
   * accountId → claims (sub, email, email_verified, name, picture, …), read on every request, so tests
   * may change them: setting `sub` after sign-in makes UserInfo disagree with the ID token.
   */
  accounts: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/** A confidential client of the default setup; the secret is long enough for `client_secret_jwt` (HS256). */
export const CONFIDENTIAL_CLIENT: TestClient = {
  client_id: "appauth-confidential",
  client_secret: "appauth-confidential-secret-0123456789abcdef",
  token_endpoint_auth_method: "client_secret_basic",
  redirect_uris: [`${BASE_URL}/callback/oidc`],
};

/** A public client (no secret, PKCE required) of the default setup. */
export const PUBLIC_CLIENT: TestClient = {
  client_id: "appauth-public",
  token_endpoint_auth_method: "none",
  redirect_uris: [`${BASE_URL}/callback/oidc`],
};

/** The default accounts: Ada's email is verified by the OP, Grace's is not. */
export const TEST_ACCOUNTS: Readonly<Record<string, Record<string, unknown>>> = {
  ada: { email: "ada@example.com", email_verified: true, name: "Ada Lovelace", picture: "https://img.example/ada.png" },
  grace: { email: "grace@example.com", email_verified: false, name: "Grace Hopper", picture: "https://img.example/grace.png" },
};

const DEFAULT_TTL = {
  AccessToken: 300,
  AuthorizationCode: 60,
  IdToken: 300,
  RefreshToken: 3600,
  Session: 3600,
  Grant: 3600,
  Interaction: 600,
};

/** Which claims each scope releases (OIDC Core §5.4). */
const SCOPE_CLAIMS = {
  openid: ["sub"],
  email: ["email", "email_verified"],
  profile: ["name", "given_name", "family_name", "nickname", "preferred_username", "picture", "locale", "updated_at"],
};

const INTERACTION_PATH = "/interaction/";
/** oidc-provider's default routes (lib/helpers/defaults.js `routes`), which this OP keeps. */
const END_SESSION_PATH = "/session/end";
const END_SESSION_SUCCESS_PATH = "/session/end/success";
const REVOCATION_PATH = "/token/revocation";
const MAX_HOPS = 12;

/** Fresh signing keys for one OP, so a token from one test OP never verifies at another. */
function generateSigningKeys(): SigningKey[] {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  return [
    { ...rsa, kid: `rs256-${randomUUID()}`, alg: "RS256", use: "sig" },
    { ...ec, kid: `es256-${randomUUID()}`, alg: "ES256", use: "sig" },
  ];
}

/**
 * Storage for one OP, in memory. oidc-provider's own MemoryAdapter keeps one store for every
 * instance in the process and warns each time one is created; this one lives and dies with its OP.
 */
function memoryAdapter(): new (model: string) => Adapter {
  const records = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const record = records.get(key);
    if (!record || record.expiresAt > Date.now()) return record;
    records.delete(key);
    return undefined;
  };
  const findWhere = (model: string, matches: (payload: AdapterPayload) => boolean) => {
    for (const key of records.keys()) {
      const record = key.startsWith(`${model}:`) ? live(key) : undefined;
      if (record && matches(record.payload)) return structuredClone(record.payload);
    }
    return undefined;
  };
  return class TestOPAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const expiresAt = expiresIn > 0 ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
      records.set(`${this.model}:${id}`, { payload: structuredClone(payload), expiresAt });
    }
    async find(id: string) {
      const record = live(`${this.model}:${id}`);
      return record && structuredClone(record.payload);
    }
    async findByUid(uid: string) {
      return findWhere(this.model, (payload) => payload.uid === uid);
    }
    async findByUserCode(userCode: string) {
      return findWhere(this.model, (payload) => payload.userCode === userCode);
    }
    async consume(id: string) {
      const record = live(`${this.model}:${id}`);
      if (record) record.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      records.delete(`${this.model}:${id}`);
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, record] of records) if (record.payload.grantId === grantId) records.delete(key);
    }
  };
}

/** Starts an OP on an ephemeral loopback port; `close()` stops it. */
export async function startTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  const host = options.host ?? "127.0.0.1";
  const features = options.features ?? {};
  const clients = (options.clients ?? [CONFIDENTIAL_CLIENT, PUBLIC_CLIENT]).map((client) => ({ ...client }));
  const accounts = new Map(Object.entries(options.accounts ?? TEST_ACCOUNTS).map(([id, claims]) => [id, { ...claims }]));
  const signingKeys = generateSigningKeys();
  const grants: Record<string, number> = {};
  const dpopNonceChallenges = { count: 0 };
  // One nonce secret per OP, so its nonces survive a key rotation's restart.
  const dpopNonceSecret = Buffer.from(randomUUID().replace(/-/g, ""), "utf8");
  const backchannelDeliveries: BackchannelDelivery[] = [];

  // The issuer names the port, so the server listens before the provider exists.
  let listener: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  // Kept across a key rotation, which starts the OP afresh: sessions, grants and codes survive it.
  const storage = memoryAdapter();
  /** Starts (or, on rotation, restarts) the OP on the listening server, signing with `keys`. */
  const serve = (keys: SigningKey[]): void => {
    const provider = new Provider(issuer, {
      adapter: storage,
      clients,
      clientDefaults: { grant_types: ["authorization_code", "refresh_token"] },
      findAccount(_ctx, sub): Account | undefined {
        if (!accounts.has(sub)) return undefined;
        // Read at claim time, not login time, so a test can change an account between two requests.
        return { accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) };
      },
      claims: SCOPE_CLAIMS,
      scopes: ["openid", "profile", "email", "offline_access"],
      conformIdTokenClaims: features.claimsInIdToken === false,
      cookies: { keys: ["appauth-test-op-cookie-key"], long: { sameSite: "lax" } },
      jwks: { keys },
      enabledJWA: { idTokenSigningAlgValues: ["RS256", "PS256", "ES256", "EdDSA", "HS256"] },
      pkce: {
        methods: ["S256"],
        required: (_ctx, client) => features.pkceRequired === "always" || client.clientAuthMethod === "none",
      },
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: true },
        revocation: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        claimsParameter: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource(ctx, form) {
            ctx.type = "html";
            ctx.body = `<!doctype html><title>Sign out</title>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button>`;
          },
          postLogoutSuccessSource(ctx) {
            ctx.type = "html";
            ctx.body = "<!doctype html><title>Signed out</title><p>Signed out.</p>";
          },
        },
        backchannelLogout: { enabled: true },
        pushedAuthorizationRequests: {
          enabled: features.pushedAuthorizationRequests !== false,
          requirePushedAuthorizationRequests: features.pushedAuthorizationRequests === "required",
        },
        requestObjects: {
          request: features.requestObjects !== undefined && features.requestObjects !== false,
          requireSignedRequestObject: features.requestObjects === "required",
        },
        jwtResponseModes: { enabled: features.jwtResponseModes === true },
        ...(features.fapi ? { fapi: { enabled: true, profile: features.fapi } } : {}),
        ...(features.mtls
          ? {
              mTLS: {
                enabled: true,
                certificateBoundAccessTokens: true,
                selfSignedTlsClientAuth: true,
                getCertificate: (ctx) => {
                  const forwarded = ctx.get("x-ssl-client-cert");
                  return forwarded ? decodeURIComponent(forwarded) : undefined;
                },
              },
            }
          : {}),
        ...(features.dpop
          ? {
              dPoP: {
                enabled: true,
                ...(features.dpop.nonces ? { nonceSecret: dpopNonceSecret, requireNonce: () => true } : {}),
              },
            }
          : {}),
      },
      ...(features.mtls
        ? {
            clientAuthMethods: ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "none", "self_signed_tls_client_auth"],
            discovery: {
              mtls_endpoint_aliases: Object.fromEntries(
                Object.entries({ token_endpoint: "/token", pushed_authorization_request_endpoint: "/request", userinfo_endpoint: "/me" }).map(
                  ([name, path]) => [name, `${features.mtls!.endpointAliasesAt}${path}`],
                ),
              ),
            },
          }
        : {}),
      issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
      rotateRefreshToken(ctx) {
        const policy = features.rotateRefreshToken ?? "public";
        return policy === "always" || (policy === "public" && ctx.oidc?.entities.Client?.clientAuthMethod === "none");
      },
      ttl: { ...DEFAULT_TTL, ...features.ttl },
      interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
      renderError(ctx, out) {
        ctx.type = "json";
        ctx.body = out;
      },
    });
    provider.on("server_error", (_ctx, error) => console.error("[test OP] server_error", error));
    recordBackchannelLogouts(provider, backchannelDeliveries);

    provider.use(async (ctx, next) => {
      await next();
      // The body is parsed by the token route itself, so the grant_type is only known afterwards.
      if (ctx.method === "POST" && ctx.path === "/token") {
        const grantType = ctx.oidc?.body?.grant_type;
        const key = typeof grantType === "string" ? grantType : "(none)";
        grants[key] = (grants[key] ?? 0) + 1;
        if ((ctx.body as { error?: unknown } | undefined)?.error === "use_dpop_nonce") dpopNonceChallenges.count++;
      }
    });

    const opListener = provider.callback();
    listener = (req, res) => {
      if (req.url?.startsWith(INTERACTION_PATH)) {
        handleInteraction(provider, accounts, req, res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
          res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
        });
      } else {
        opListener(req, res);
      }
    };
  };
  serve(signingKeys);

  const accountFor = (accountId = accounts.keys().next().value): string => {
    if (accountId === undefined || !accounts.has(accountId)) {
      throw new TypeError(`authorize: opts.accountId "${accountId}" is not one of the OP's accounts`);
    }
    return accountId;
  };
  const browser = (): TestBrowser => {
    const jar = new CookieJar();
    return {
      authorize: async (authorizationUrl, opts = {}) =>
        drive(issuer, jar, authorizationUrl, { accountId: accountFor(opts.accountId), deny: opts.deny === true }),
      endSession: (endSessionUrl) => endSession(issuer, jar, endSessionUrl),
      signOutAtProvider: () => endSession(issuer, jar, `${issuer}${END_SESSION_PATH}`),
    };
  };

  return {
    issuer,
    clients,
    signingKeys,
    rotateSigningKeys: () => {
      signingKeys.splice(0, signingKeys.length, ...generateSigningKeys());
      serve(signingKeys);
    },
    grants,
    dpopNonceChallenges,
    accounts,
    backchannelDeliveries,
    authorize: (authorizationUrl, opts) => browser().authorize(authorizationUrl, opts),
    browser,
    revokeRefreshToken: async (refreshToken, client) => {
      const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
      const body = new URLSearchParams({ token: refreshToken, token_type_hint: "refresh_token" });
      authenticateClient(client, headers, body);
      const response = await fetch(`${issuer}${REVOCATION_PATH}`, { method: "POST", headers, body });
      const text = await response.text();
      if (!response.ok) throw new Error(`revokeRefreshToken: the OP answered ${response.status}: ${opMessage(text)}`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Client authentication (RFC 6749 §2.3) on a request to the OP's token, revocation or introspection
 * endpoint, as `client` registered it: `client_secret_basic`, `client_secret_post`, or `none` (the
 * client_id alone). The JWT methods need an assertion, which is the RP's job, not the test OP's.
 */
export function authenticateClient(client: TestClient, headers: Headers, body: URLSearchParams): void {
  switch (client.token_endpoint_auth_method) {
    case "client_secret_basic": {
      const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret ?? "")}`;
      headers.set("authorization", `Basic ${Buffer.from(credentials).toString("base64")}`);
      return;
    }
    case "client_secret_post":
      body.set("client_id", client.client_id);
      body.set("client_secret", client.client_secret ?? "");
      return;
    case "none":
      body.set("client_id", client.client_id);
      return;
    default:
      throw new TypeError(`authenticateClient: ${client.token_endpoint_auth_method} is not supported here`);
  }
}

/** The parts of a client and of an ID token that oidc-provider's back-channel logout uses (lib/models/client.js, id_token.js). */
interface BackchannelClient {
  clientId: string;
  backchannelLogoutUri?: string;
}
interface IdTokenInstance {
  client?: BackchannelClient;
  issue(options: { use: string }): Promise<string>;
}

/**
 * Fills `deliveries` with the OP's back-channel logouts. Its events, `backchannel.success` and
 * `backchannel.error`, name the client, account and sid but not the token, so the token is taken
 * where `Client#backchannelLogout` makes it, just before the POST: `IdToken#issue({ use: "logout" })`.
 * Each provider has its own IdToken class, so patching it here touches no other OP.
 */
function recordBackchannelLogouts(provider: Provider, deliveries: BackchannelDelivery[]): void {
  const issued: Omit<BackchannelDelivery, "outcome">[] = [];
  const idToken = (provider as unknown as { IdToken: { prototype: IdTokenInstance } }).IdToken.prototype;
  const issue = idToken.issue;
  idToken.issue = async function issueAndRecord(this: IdTokenInstance, options) {
    const token = await issue.call(this, options);
    if (options.use === "logout" && this.client) {
      const { sub, sid } = decodeJwt(token);
      issued.push({
        clientId: this.client.clientId,
        uri: this.client.backchannelLogoutUri ?? "",
        logoutToken: token,
        sub: String(sub),
        ...(typeof sid === "string" ? { sid } : {}),
      });
    }
    return token;
  };

  const settle = (client: BackchannelClient, accountId: string, sid: string, result: Pick<BackchannelDelivery, "outcome" | "status" | "error">) => {
    const at = issued.findIndex((d) => d.clientId === client.clientId && d.sub === accountId && (d.sid ?? sid) === sid);
    // No token when the OP failed before issuing one.
    const [sent = { clientId: client.clientId, uri: client.backchannelLogoutUri ?? "", logoutToken: "", sub: accountId }] =
      at < 0 ? [] : issued.splice(at, 1);
    deliveries.push({ ...sent, ...result });
  };
  provider.on("backchannel.success", (_ctx, client, accountId, sid) => {
    settle(client as BackchannelClient, String(accountId), String(sid), { outcome: "delivered" });
  });
  provider.on("backchannel.error", (_ctx, error, client, accountId, sid) => {
    const status = (error as { response?: { statusCode?: number } }).response?.statusCode;
    const message = error instanceof Error ? error.message : String(error);
    settle(client as BackchannelClient, String(accountId), String(sid), { outcome: "failed", error: message, ...(status ? { status } : {}) });
  });
}

/**
 * The OP's interaction endpoint, driven by `authorize()`: `POST /interaction/:uid` with `accountId`
 * (and `deny=true` to refuse) answers the current prompt — login, then consent — and redirects back
 * to the authorization endpoint. `GET` shows the pending prompt as JSON, for debugging.
 */
async function handleInteraction(
  provider: Provider,
  accounts: Map<string, unknown>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const interaction = await provider.interactionDetails(req, res);
  const uid = new URL(req.url ?? "/", "http://op").pathname.slice(INTERACTION_PATH.length);
  if (uid !== interaction.uid) throw new Error("the URL names another interaction than the cookie");
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ uid, prompt: interaction.prompt, params: interaction.params }));
    return;
  }
  const form = new URLSearchParams(await readBody(req, 64 * 1024));
  if (form.get("deny") === "true") {
    const error = { error: "access_denied", error_description: "The end-user denied the request." };
    return provider.interactionFinished(req, res, error, { mergeWithLastSubmission: false });
  }
  switch (interaction.prompt.name) {
    case "login": {
      const accountId = form.get("accountId") ?? "";
      if (!accounts.has(accountId)) throw new Error(`no account "${accountId}"`);
      return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    }
    case "consent": {
      const grantId = await grantWhatWasAsked(provider, interaction);
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
    default:
      throw new Error(`unexpected prompt "${interaction.prompt.name}"`);
  }
}

/** A URL a test handed the browser, which must be on the OP. */
function urlOnOp(issuer: string, href: string, caller: string): URL {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new TypeError(`${caller}: not a URL: ${href}`);
  }
  if (url.origin !== new URL(issuer).origin) throw new TypeError(`${caller}: not on the OP (${issuer}): ${url.href}`);
  return url;
}

/** One request of the browser to the OP: its cookies sent, the answer's kept, a redirect not followed. */
async function visit(jar: CookieJar, url: URL, form?: URLSearchParams): Promise<Response> {
  const headers = new Headers({ accept: "text/html" });
  const cookie = jar.header(url);
  if (cookie) headers.set("cookie", cookie);
  if (form) headers.set("content-type", "application/x-www-form-urlencoded");
  const response = await fetch(url, { method: form ? "POST" : "GET", headers, body: form, redirect: "manual" });
  jar.keep(url, response);
  return response;
}

/** Where a redirect response points, or undefined for any other response. */
function redirectTarget(response: Response, from: URL): URL | undefined {
  const location = response.headers.get("location");
  return response.status >= 300 && response.status < 400 && location ? new URL(location, from) : undefined;
}

/** The OP's error page (`renderError`, JSON) as `error (error_description)`; other pages as their start. */
function opMessage(text: string): string {
  try {
    const { error, error_description } = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof error === "string") return typeof error_description === "string" ? `${error} (${error_description})` : error;
  } catch {
    // not the OP's JSON error
  }
  return text.slice(0, 500);
}

/** The browser's side of `authorize()`: redirects followed by hand, the interaction's form submitted at once. */
async function drive(
  issuer: string,
  jar: CookieJar,
  authorizationUrl: string,
  answer: { accountId: string; deny: boolean },
): Promise<AuthorizationOutcome> {
  let url = urlOnOp(issuer, authorizationUrl, "authorize");
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    // The interaction page would show a form; the browser here submits it at once.
    const submit = url.pathname.startsWith(INTERACTION_PATH);
    const response = await visit(
      jar,
      url,
      submit ? new URLSearchParams({ accountId: answer.accountId, ...(answer.deny ? { deny: "true" } : {}) }) : undefined,
    );
    const next = redirectTarget(response, url);
    if (next) {
      await response.body?.cancel();
      if (next.origin !== url.origin) return { url: next.href, method: "GET" };
      url = next;
      continue;
    }
    const text = await response.text();
    const form = response.ok ? parseAutoSubmitForm(text) : undefined;
    if (form) return { url: new URL(form.action, url).href, method: "POST", form: form.fields };
    throw new Error(`authorize: the OP answered ${response.status} at ${url.pathname}: ${opMessage(text)}`);
  }
  throw new Error(`authorize: more than ${MAX_HOPS} redirects`);
}

/**
 * The browser's side of `endSession()`: the end_session page's form (the confirmation page, or the
 * self-submitting form the OP shows when nobody is signed in) is submitted with the button a user
 * would click, then redirects are followed while they stay on the OP.
 */
async function endSession(issuer: string, jar: CookieJar, endSessionUrl: string): Promise<EndSessionOutcome> {
  let url = urlOnOp(issuer, endSessionUrl, "endSession");
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const submitted = form !== undefined;
    const response = await visit(jar, url, form);
    form = undefined;
    const next = redirectTarget(response, url);
    if (next) {
      await response.body?.cancel();
      if (next.origin !== url.origin) return { url: next.href };
      url = next;
      continue;
    }
    const text = await response.text();
    if (!response.ok) throw new Error(`endSession: the OP answered ${response.status} at ${url.pathname}: ${opMessage(text)}`);
    if (url.pathname === END_SESSION_SUCCESS_PATH) return { page: "signed-out" };
    const page = submitted ? undefined : parsePostForm(text);
    if (!page) throw new Error(`endSession: unexpected page at ${url.pathname}: ${text.slice(0, 500)}`);
    url = urlOnOp(issuer, new URL(page.action, url).href, "endSession: the logout form");
    form = new URLSearchParams({ ...page.fields, ...page.submitter });
  }
  throw new Error(`endSession: more than ${MAX_HOPS} redirects`);
}

/** The cookies one browser holds for the OP's origin; path-scoped like a browser's (RFC 6265 §5.1.4). */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; raw: string; path: string }>();

  keep(url: URL, response: Response): void {
    for (const cookie of setCookiesOf(response)) {
      const path = cookie.path?.startsWith("/") ? cookie.path : defaultPath(url);
      const key = `${cookie.name};${path}`;
      if (isDeletion(cookie)) this.cookies.delete(key);
      else this.cookies.set(key, { name: cookie.name, raw: cookie.raw, path });
    }
  }

  header(url: URL): string | undefined {
    const pairs = [...this.cookies.values()]
      .filter(({ path }) => pathMatches(url.pathname, path))
      .map(({ name, raw }) => `${name}=${raw}`);
    return pairs.length ? pairs.join("; ") : undefined;
  }
}

function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf("/");
  return slash > 0 ? url.pathname.slice(0, slash) : "/";
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, "i").exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

/** The `form_post` response mode's page: one `<form method="post">` of hidden inputs, submitted by script. */
export function parseAutoSubmitForm(html: string): { action: string; fields: Record<string, string> } | undefined {
  const form = parsePostForm(html);
  return form && { action: form.action, fields: form.fields };
}

/**
 * The page's first `<form method="post">`: its action, the inputs inside it or naming it with
 * `form="id"`, and the name and value of its first submit button (inside or naming it) — what a
 * browser adds to the fields when the user clicks that button.
 */
function parsePostForm(
  html: string,
): { action: string; fields: Record<string, string>; submitter: Record<string, string> } | undefined {
  const open = /<form\b[^>]*>/i.exec(html);
  if (!open || attribute(open[0], "method")?.toLowerCase() !== "post") return undefined;
  const action = attribute(open[0], "action");
  if (action === undefined) return undefined;
  const id = attribute(open[0], "id");
  const close = /<\/form\s*>/i.exec(html.slice(open.index));
  const end = close ? open.index + close.index : html.length;
  const belongs = (tag: string, at: number) => {
    const owner = attribute(tag, "form");
    return owner === undefined ? at > open.index && at < end : owner === id;
  };

  const fields: Record<string, string> = {};
  for (const { 0: input, index } of html.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(input, "name");
    const type = attribute(input, "type")?.toLowerCase() ?? "text";
    if (name !== undefined && !["submit", "button", "reset", "image"].includes(type) && belongs(input, index)) {
      fields[name] = attribute(input, "value") ?? "";
    }
  }
  const submitter: Record<string, string> = {};
  for (const { 0: button, index } of html.matchAll(/<button\b[^>]*>/gi)) {
    const type = attribute(button, "type")?.toLowerCase() ?? "submit";
    if (type !== "submit" || !belongs(button, index)) continue;
    const name = attribute(button, "name");
    if (name !== undefined) submitter[name] = attribute(button, "value") ?? "";
    break;
  }
  return { action, fields, submitter };
}
