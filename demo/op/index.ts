/**
 * The demo's own OpenID Provider, so a newcomer can try "Sign in with OpenID Connect" with no
 * account anywhere and no secret to set: `oidc-provider` on loopback (plain http), one confidential
 * client for the demo app, three pretend people, and sign-in and consent pages rendered here.
 * Keys and the OP's state live in demo/.data (gitignored), so a restart keeps everyone signed in.
 *
 * ```ts
 * const op = await startDemoProvider({ port: 3001, redirectUris: ["http://localhost:3000/api/auth/callback/demo-id"] });
 * // issuer http://localhost:3001, client op.clientId / op.clientSecret (client_secret_basic)
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { DemoAccounts } from "./accounts.js";
import { FileStore } from "./file-store.js";
import { handleInteraction, INTERACTION_PATH } from "./interactions.js";
import { loadDemoKeys } from "./keys.js";
import { errorPage, loggedOutPage, logoutPage, pageHeaders } from "./pages.js";

/** Where keys (`op-keys.json`) and state (`op-store.json`) are kept unless told otherwise. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL("../.data/", import.meta.url));

export interface DemoProviderOptions {
  /** 0 picks a free port. */
  port: number;
  host?: "localhost" | "127.0.0.1";
  /** The demo app's callback URL(s); their origins become the post-logout redirect URIs. */
  redirectUris: string[];
  clientId?: string;
  /** Default: generated on first start and kept in op-keys.json. */
  clientSecret?: string;
  /** Default demo/.data; tests pass a temporary folder. */
  dataDir?: string;
}

export interface DemoProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

const CLIENT_NAME = "appauth demo";
const DAY = 24 * 60 * 60;

function checkOptions(options: DemoProviderOptions): void {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new TypeError(`startDemoProvider: port must be an integer from 0 to 65535, got ${options.port}`);
  }
  if (!Array.isArray(options.redirectUris) || options.redirectUris.length === 0) {
    throw new TypeError("startDemoProvider: redirectUris must list at least one URL");
  }
  for (const uri of options.redirectUris) {
    if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) {
      throw new TypeError(`startDemoProvider: redirectUris holds a value that is not an http(s) URL: ${uri}`);
    }
  }
}

export async function startDemoProvider(options: DemoProviderOptions): Promise<DemoProvider> {
  checkOptions(options);
  const host = options.host ?? "localhost";
  const clientId = options.clientId ?? "appauth-demo";
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const keys = await loadDemoKeys(join(dataDir, "op-keys.json"), { clientId, clientSecret: options.clientSecret });
  const clientSecret = keys.clientSecrets[clientId] ?? "";
  const store = await FileStore.open(join(dataDir, "op-store.json"));
  const accounts = new DemoAccounts(store);
  const appOrigins = [...new Set(options.redirectUris.map((uri) => new URL(uri).origin))];

  // The issuer names the port, so the server listens before the provider exists.
  let listener: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  const html = (ctx: KoaContextWithOIDC, body: string) => {
    for (const [name, value] of Object.entries(pageHeaders(appOrigins))) ctx.set(name, value);
    ctx.body = body;
  };

  const provider = new Provider(issuer, {
    adapter: store.adapterClass(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: CLIENT_NAME,
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: options.redirectUris,
        // An RP may send its origin with or without the trailing slash; both are the app's home page.
        // appauth comes back to <basePath>/signout/<provider> after RP-initiated logout (a callback
        // URL with /signout/ for /callback/); an RP may also send its origin, with or without "/".
        post_logout_redirect_uris: [
          ...options.redirectUris.map((uri) => uri.replace(/\/callback\/([^/]+)$/, "/signout/$1")),
          ...appOrigins.flatMap((origin) => [origin, `${origin}/`]),
        ],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    findAccount(_ctx, sub) {
      const account = accounts.find(sub);
      return account && { accountId: sub, claims: () => ({ ...account }) };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name"] },
    scopes: ["openid", "profile", "email", "offline_access"],
    // The profile claims go in the ID token too, as with most real providers: appauth's OIDC
    // providers read the user from the ID token unless told to call UserInfo.
    conformIdTokenClaims: false,
    // The app runs on another port of the same host, and browsers share cookies across ports:
    // names that cannot be mistaken for the app's.
    cookies: {
      keys: keys.cookieKeys,
      long: { sameSite: "lax" },
      names: { session: "demo-op.session", interaction: "demo-op.interaction", resume: "demo-op.resume" },
    },
    jwks: { keys: keys.signingKeys },
    // PKCE stays required for every client (oidc-provider's default, RFC 9700 §2.1.1); appauth sends it.
    pkce: { methods: ["S256"] },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => html(ctx, logoutPage(form)),
        postLogoutSuccessSource: (ctx) => html(ctx, loggedOutPage()),
      },
    },
    ttl: {
      AccessToken: 60 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      RefreshToken: 14 * DAY,
      Session: 14 * DAY,
      Grant: 14 * DAY,
      Interaction: 60 * 60,
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    renderError(ctx, out) {
      html(ctx, errorPage("Sign-in could not continue", out.error_description ?? out.error ?? "Unknown error."));
    },
  });
  provider.on("server_error", (_ctx, error) => console.error("[demo OP] server error:", error));

  const opListener = provider.callback();
  const context = { provider, accounts, clientName: CLIENT_NAME, appOrigins };
  listener = (req, res) => {
    if (!req.url?.startsWith(INTERACTION_PATH)) return opListener(req, res);
    handleInteraction(context, req, res).catch((error: unknown) => {
      console.error("[demo OP] interaction failed:", error);
      if (!res.headersSent) res.writeHead(500, pageHeaders(appOrigins));
      res.end(errorPage("Something went wrong", "The demo identity provider could not finish this step."));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      await store.flush();
    },
  };
}
