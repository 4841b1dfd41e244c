/**
 * The demo application: appauth on plain `node:http`, no framework. The app itself is one
 * `(Request) => Promise<Response>` handler (auth routes under /api/auth, a home page, a
 * protected page and the dev mailbox); `startDemo` serves it on a port, and `server.ts` is the
 * command line around that.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig, type LoggerInstance, type Session } from "../src/index.js";
import Credentials from "../src/providers/credentials.js";
import Nodemailer from "../src/providers/email.js";
import { Passkey } from "../src/providers/webauthn.js";
import type { OIDCConfig } from "../src/providers/oauth-types.js";
import { sqliteAdapter } from "../src/adapters/sql/sqlite.js";
import type { Adapter, User } from "../src/types.js";
import { startDemoProvider, DEFAULT_DATA_DIR, type DemoProvider } from "./op/index.js";
import { mailboxPage, startMailbox, type Mailbox } from "./mailbox/index.js";
import { join } from "node:path";
import { toNodeListener, type FetchHandler } from "./node-http.js";
import { homePage, notFoundPage, PAGE_HEADERS, protectedPage, type DemoLinks } from "./pages.js";
import { launcherSecret, type SecretSource } from "./secret.js";

export const BASE_PATH = "/api/auth";

/** The one account of the demo. */
export const DEMO_USER = {
  username: "demo",
  password: "demo",
  profile: { id: "demo-user", name: "Demo User", email: "demo@example.com" },
} as const;

const links: DemoLinks = {
  signIn: (callbackUrl) => `${BASE_PATH}/signin?${new URLSearchParams({ callbackUrl })}`,
  signOut: (callbackUrl) => `${BASE_PATH}/signout?${new URLSearchParams({ callbackUrl })}`,
  sessionJson: `${BASE_PATH}/session`,
};

/** Compares in time independent of where (or whether) the strings differ, lengths included. */
function sameText(given: unknown, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(typeof given === "string" ? given : ""), digest(expected)) && typeof given === "string";
}

/** Where the dev mailbox page lives. */
export const MAILBOX_PATH = "/dev/mailbox";

/** The sender of the demo's sign-in mails. */
export const DEMO_MAIL_FROM = "appauth demo <no-reply@localhost>";

/** The provider id of the bundled OpenID Provider. */
export const DEMO_IDP_ID = "demo-idp";

/** The bundled OpenID Provider as an appauth provider: OIDC discovery, PKCE, nonce, state. */
export function demoIdentityProvider(op: Pick<DemoProvider, "issuer" | "clientId" | "clientSecret">): OIDCConfig {
  return {
    id: DEMO_IDP_ID,
    name: "Demo identity provider",
    type: "oidc",
    issuer: op.issuer,
    clientId: op.clientId,
    clientSecret: op.clientSecret,
    checks: ["pkce", "state", "nonce"],
    // A refresh token (offline_access, which the OP grants only with consent) keeps the access token
    // renewed on session reads; signing out ends the OP's session too.
    authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },
    rpInitiatedLogout: true,
    style: { brandColor: "#0f766e" },
  };
}

/** The demo's appauth configuration. `secret` undefined: the library reads APPAUTH_SECRET/AUTH_SECRET. */
export function demoAuthConfig(options: {
  secret: string | undefined;
  logger?: Partial<LoggerInstance>;
  identityProvider?: OIDCConfig;
  /** Where users, accounts and sessions live; without one, sessions are JWTs, nothing is stored and there are no passkeys. */
  adapter?: Adapter;
  /** The SMTP server of email sign-in (nodemailer options); without one (or an adapter) there is none. */
  mailServer?: Record<string, unknown>;
  /** The stored user the demo password signs in (see seedDemoUser); default DEMO_USER.profile. */
  passwordUser?: User;
}): AuthConfig {
  const passwordUser = options.passwordUser ?? DEMO_USER.profile;
  return {
    ...(options.adapter ? { adapter: options.adapter } : {}),
    // Passkeys keep their authenticators in the store, so they too come only with an adapter.
    ...(options.adapter ? { experimental: { enableWebAuthn: true } } : {}),
    basePath: BASE_PATH,
    trustHost: true,
    // The sign-in page says whose it is ("Sign in to appauth demo") and links back home.
    theme: { brandName: "appauth demo" },
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    providers: [
      ...(options.identityProvider ? [options.identityProvider] : []),
      // Email links need a store for their tokens, so email sign-in comes only with an adapter.
      ...(options.mailServer && options.adapter ? [Nodemailer({ server: options.mailServer, from: DEMO_MAIL_FROM })] : []),
      Credentials({
        credentials: {
          // Declared "text": the one field the sign-in page may show again after a wrong password.
          username: { label: "Username", type: "text", autocomplete: "username", required: true },
          password: { label: "Password", type: "password", required: true },
        },
        authorize({ username, password }) {
          // Both fields are always checked, so the time taken says nothing about which one was wrong.
          const userOk = sameText(username, DEMO_USER.username);
          const passwordOk = sameText(password, DEMO_USER.password);
          return userOk && passwordOk ? { ...passwordUser } : null;
        },
      }),
      ...(options.adapter ? [Passkey()] : []),
    ],
  };
}

/** The session of the browser that sent `request`, read through the library's own session route. */
async function readSession(request: Request, config: AuthConfig): Promise<{ session: Session | null; setCookies: string[] }> {
  const headers = new Headers({ accept: "application/json" });
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const response = await Auth(new Request(new URL(`${BASE_PATH}/session`, request.url), { headers }), config);
  // The session route may refresh the cookie (sliding expiry) or clear a dead one: pass that on.
  const setCookies = response.headers.getSetCookie();
  if (!response.ok) return { session: null, setCookies };
  const body: unknown = await response.json();
  const session = body && typeof body === "object" ? (body as Session) : null;
  return { session, setCookies };
}

function page(html: string, status: number, setCookies: string[] = []): Response {
  const headers = new Headers(PAGE_HEADERS);
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return new Response(html, { status, headers });
}

function redirect(location: string, setCookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "private, no-cache, no-store" });
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/** The whole app as one fetch-style handler; `mailbox` is the dev mailbox whose mails /dev/mailbox lists. */
export function createDemoApp(config: AuthConfig, options: { mailbox?: Pick<Mailbox, "host" | "port" | "list"> } = {}): FetchHandler {
  const { mailbox } = options;
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === BASE_PATH || pathname.startsWith(`${BASE_PATH}/`)) return Auth(request, config);

    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Method Not Allowed\n", { status: 405, headers: { allow: "GET, HEAD", "content-type": "text/plain" } });
    }
    switch (pathname) {
      case "/": {
        const { session, setCookies } = await readSession(request, config);
        return page(homePage({ session, links, hint: DEMO_USER, ...(mailbox ? { mailbox: MAILBOX_PATH } : {}) }), 200, setCookies);
      }
      case "/protected": {
        const { session, setCookies } = await readSession(request, config);
        if (!session) return redirect(links.signIn("/protected"), setCookies);
        return page(protectedPage({ session, links }), 200, setCookies);
      }
      case MAILBOX_PATH:
        return page(mailboxPage(mailbox ? { messages: mailbox.list(), smtp: `${mailbox.host}:${mailbox.port}` } : { messages: [] }), 200);
      default:
        return page(notFoundPage(pathname), 404);
    }
  };
}

export interface StartDemoOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default `localhost` (WebAuthn and secure-context features want that name, not an IP). */
  host?: string;
  /** Use this secret instead of the environment's or the stored one. */
  secret?: string;
  /** Where a generated secret is kept; default `demo/.data/secret`. */
  secretFile?: string;
  /** The library's logger; default: its console logger. */
  logger?: Partial<LoggerInstance>;
  /** Where the bundled OpenID Provider keeps its keys and the app its SQLite database; default `demo/.data`. */
  dataDir?: string;
}

export interface RunningDemo {
  /** The app's URL, e.g. `http://localhost:3000`. */
  url: string;
  /** The bundled OpenID Provider's issuer URL. */
  issuer: string;
  secretSource: SecretSource | "option";
  /** Stops accepting connections and resolves once the server has closed. */
  close(): Promise<void>;
}

/** How long open keep-alive connections get to finish before `close()` cuts them. */
const CLOSE_GRACE_MS = 2000;

/**
 * The stored user the demo password signs in: its database sessions must join to a user in the
 * store. The file is shared with the Next.js demo (`npm start`), where signing in by email link,
 * passkey or the OP with demo@example.com stores that address under another id; that user is the
 * demo user then (an address belongs to one user), rather than a second one the store refuses.
 */
export async function seedDemoUser(store: Adapter): Promise<User> {
  const wanted = DEMO_USER.profile;
  const existing = (await store.getUser!(wanted.id)) ?? (await store.getUserByEmail!(wanted.email));
  if (existing) return existing;
  return store.createUser!({ ...wanted, image: null, emailVerified: null });
}

/** Starts the demo on `host:port` and resolves once it is listening. */
export async function startDemo(options: StartDemoOptions): Promise<RunningDemo> {
  const host = options.host ?? "localhost";
  const { secret, source: secretSource } = await launcherSecret(options);
  // The app listens first: the OP must know the app's callback URL, which needs the port.
  const ready: { app?: FetchHandler } = {};
  const server = createServer(
    toNodeListener((request) => ready.app?.(request) ?? Promise.resolve(new Response("Starting…\n", { status: 503 }))),
  );
  await listen(server, options.port, host);
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  const op = await startDemoProvider({
    port: 0,
    host: host === "127.0.0.1" ? "127.0.0.1" : "localhost",
    redirectUris: [`${url}${BASE_PATH}/callback/${DEMO_IDP_ID}`],
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  // Email sign-in with no mail account: a loopback SMTP server inside the demo receives the links.
  const mailbox = await startMailbox();
  // The embedded default: users, accounts and sessions in an SQLite file created on first run.
  const store = sqliteAdapter(join(options.dataDir ?? DEFAULT_DATA_DIR, "appauth.sqlite"));
  await store.migrate();
  const config = demoAuthConfig({
    secret,
    adapter: store,
    passwordUser: await seedDemoUser(store),
    identityProvider: demoIdentityProvider(op),
    mailServer: mailbox.server,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  ready.app = createDemoApp(config, { mailbox });

  let closing: Promise<void> | undefined;
  return {
    url,
    issuer: op.issuer,
    secretSource,
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
        }),
        op.close(),
        mailbox.close(),
      ]).then(() => store.destroy());
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}
