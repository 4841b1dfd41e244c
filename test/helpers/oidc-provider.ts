/**
 * A real OpenID Provider (`oidc-provider@8`) on a loopback port, for testing appauth's OAuth/OIDC
 * flows against the genuine article instead of a fake. `authorize()` plays the browser: it follows
 * the OP's redirects with its own cookie jar, logs an account in and consents through the OP's
 * interaction endpoints, and hands back where the OP finally sends the user (the RP's redirect_uri).
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
import Provider, { type Account, type Adapter, type AdapterPayload, type Interaction } from "oidc-provider";
import { BASE_URL } from "./config.js";
import { isDeletion, setCookiesOf } from "./set-cookie.js";

export interface TestClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "client_secret_jwt" | "private_key_jwt" | "none";
  redirect_uris: string[];
  response_types?: string[];
  /** Default `["authorization_code", "refresh_token"]`, so `offline_access` works without more setup. */
  grant_types?: string[];
  jwks?: { keys: JsonWebKey[] };
  id_token_signed_response_alg?: string;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
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
  /** Lifetimes in seconds; short by default (codes 60 s, access and ID tokens 5 min, refresh tokens 1 h). */
  ttl?: Partial<Record<"AccessToken" | "AuthorizationCode" | "IdToken" | "RefreshToken" | "Session" | "Grant" | "Interaction", number>>;
}

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

export interface TestProvider {
  /** e.g. `http://127.0.0.1:PORT` (loopback, plain http). */
  issuer: string;
  clients: TestClient[];
  /** The OP's signing keys as private JWKs (RS256 first, then ES256), so tests can forge or alter ID tokens. */
  signingKeys: SigningKey[];
  /**
   * Drives the authorization request the RP sent the browser to (a full URL), logs `accountId` in
   * (default: the first account) and consents to what was asked, without a browser. Every call is a
   * fresh browser: no OP session is carried over. Returns the URL the OP redirects back to (the RP's
   * redirect_uri with code/state/iss, or error), or for `response_mode=form_post` the form's action
   * and fields. An OP error page that does not go back to the RP (unknown client, bad redirect_uri)
   * rejects with the OP's error.
   */
  authorize(authorizationUrl: string, opts?: { accountId?: string; deny?: boolean }): Promise<AuthorizationOutcome>;
  /** How many requests the token endpoint saw, by grant_type (failed ones included). */
  grants: Record<string, number>;
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

  // The issuer names the port, so the server listens before the provider exists.
  let listener: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
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
    jwks: { keys: signingKeys },
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
    },
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

  provider.use(async (ctx, next) => {
    await next();
    // The body is parsed by the token route itself, so the grant_type is only known afterwards.
    if (ctx.method === "POST" && ctx.path === "/token") {
      const grantType = ctx.oidc?.body?.grant_type;
      const key = typeof grantType === "string" ? grantType : "(none)";
      grants[key] = (grants[key] ?? 0) + 1;
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

  return {
    issuer,
    clients,
    signingKeys,
    grants,
    accounts,
    authorize: async (authorizationUrl, opts = {}) => {
      const accountId = opts.accountId ?? accounts.keys().next().value;
      if (accountId === undefined || !accounts.has(accountId)) {
        throw new TypeError(`authorize: opts.accountId "${accountId}" is not one of the OP's accounts`);
      }
      return drive(issuer, authorizationUrl, { accountId, deny: opts.deny === true });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
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
  const form = new URLSearchParams(await readBody(req));
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

/** Consents to every scope and claim the prompt says is missing, on top of any earlier grant. */
async function grantWhatWasAsked(provider: Provider, interaction: Interaction): Promise<string> {
  const accountId = interaction.session?.accountId;
  if (!accountId) throw new Error("consent without a logged-in account");
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId, clientId: interaction.params.client_id });
  if (!grant) throw new Error(`grant ${interaction.grantId} not found`);
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = interaction.prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  return grant.save();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The browser's side of `authorize()`: redirects followed by hand, cookies kept per path. */
async function drive(
  issuer: string,
  authorizationUrl: string,
  answer: { accountId: string; deny: boolean },
): Promise<AuthorizationOutcome> {
  const origin = new URL(issuer).origin;
  let url: URL;
  try {
    url = new URL(authorizationUrl);
  } catch {
    throw new TypeError(`authorize: authorizationUrl is not a URL: ${authorizationUrl}`);
  }
  if (url.origin !== origin) throw new TypeError(`authorize: authorizationUrl is not on the OP (${issuer}): ${url.href}`);

  const jar = new CookieJar();
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    // The interaction page would show a form; the browser here submits it at once.
    const submit = url.pathname.startsWith(INTERACTION_PATH);
    const headers = new Headers({ accept: "text/html" });
    const cookie = jar.header(url);
    if (cookie) headers.set("cookie", cookie);
    let body: string | undefined;
    if (submit) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams({ accountId: answer.accountId, ...(answer.deny ? { deny: "true" } : {}) }).toString();
    }
    const response = await fetch(url, { method: submit ? "POST" : "GET", headers, body, redirect: "manual" });
    jar.keep(url, response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== origin) return { url: url.href, method: "GET" };
      continue;
    }
    const text = await response.text();
    const form = response.ok ? parseAutoSubmitForm(text) : undefined;
    if (form) return { url: new URL(form.action, url).href, method: "POST", form: form.fields };
    throw new Error(`authorize: the OP answered ${response.status} at ${url.pathname}: ${text.slice(0, 500)}`);
  }
  throw new Error(`authorize: more than ${MAX_HOPS} redirects`);
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
  const formTag = /<form\b[^>]*>/i.exec(html)?.[0];
  if (!formTag || attribute(formTag, "method")?.toLowerCase() !== "post") return undefined;
  const action = attribute(formTag, "action");
  if (action === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(input, "name");
    if (name !== undefined) fields[name] = attribute(input, "value") ?? "";
  }
  return { action, fields };
}
