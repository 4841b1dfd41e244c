/**
 * The two libraries under test, configured alike: same secret, base path, origin, credentials
 * provider and `authorize`, default session settings and default callbacks. Each config object is
 * built once and reused for every request, as an application would.
 */
import { Auth as AuthJs, type AuthConfig as AuthJsConfig } from "@auth/core";
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters";
import CredentialsJs from "@auth/core/providers/credentials";
import { Auth } from "../src/index.js";
import Credentials from "../src/providers/credentials.js";
import type { Adapter, AuthConfig } from "../src/types.js";

export const ORIGIN = "http://localhost:3000";
export const BASE_PATH = "/api/auth";
export const USERNAME = "bench";
export const PASSWORD = "correct horse battery staple";

/** 64 hex characters, like `openssl rand -hex 32`; fixed so runs are comparable. */
const SECRET = "9f1c2e7a4b6d8f0a1c3e5f7a9b1d3f5e7a9c1e3f5a7b9d1f3e5a7c9e1b3d5f7a";

/** What every sign-in returns for valid input. */
export const BENCH_USER = { id: "bench-user-1", name: "Bench User", email: "bench@example.com" } as const;

export interface Contender {
  /** Short label for tables and JSON. */
  id: "appauth" | "authjs";
  label: string;
  sessionCookie: string;
  csrfCookie: string;
  handle(request: Request): Promise<Response>;
}

/** The one `authorize` both libraries use: a constant user for the right username and password. */
async function authorize(credentials: Partial<Record<string, unknown>>): Promise<typeof BENCH_USER | null> {
  return credentials.username === USERNAME && credentials.password === PASSWORD ? BENCH_USER : null;
}

const credentialFields = {
  username: { label: "Username" },
  password: { label: "Password", type: "password" },
};

export function appauthConfig(): AuthConfig {
  return {
    basePath: BASE_PATH,
    secret: SECRET,
    trustHost: true,
    providers: [Credentials({ credentials: credentialFields, authorize })],
  };
}

export function authjsConfig(): AuthJsConfig {
  return {
    basePath: BASE_PATH,
    secret: SECRET,
    trustHost: true,
    providers: [CredentialsJs({ credentials: credentialFields, authorize })],
  };
}

/**
 * An OAuth provider that is never contacted: the database-session configs need a provider other
 * than credentials, because @auth/core refuses the database strategy with credentials alone. A
 * fresh, identical object for each library.
 */
function unusedOAuthProvider() {
  return {
    id: "bench-oauth",
    name: "Bench OAuth",
    type: "oauth" as const,
    clientId: "bench-client",
    clientSecret: "bench-client-secret",
    authorization: "https://oauth.invalid/authorize",
    token: "https://oauth.invalid/token",
    userinfo: "https://oauth.invalid/userinfo",
  };
}

/**
 * Database sessions: the same secret, base path and origin as above, `session.strategy: "database"`
 * with the default `maxAge` (30 days) and `updateAge` (1 day), and each library on its own adapter.
 * Both speak the Auth.js adapter contract, so each gets its own instance of one of appauth's adapters.
 */
export function databaseConfigs(adapters: { appauth: Adapter; authjs: Adapter }): { appauth: AuthConfig; authjs: AuthJsConfig } {
  return {
    appauth: {
      basePath: BASE_PATH,
      secret: SECRET,
      trustHost: true,
      adapter: adapters.appauth,
      session: { strategy: "database" },
      providers: [unusedOAuthProvider()],
    },
    authjs: {
      basePath: BASE_PATH,
      secret: SECRET,
      trustHost: true,
      // The same contract; the two packages' type declarations differ only in detail.
      adapter: adapters.authjs as unknown as AuthJsAdapter,
      session: { strategy: "database" },
      providers: [unusedOAuthProvider()],
    },
  };
}

/** Both libraries, each bound to its own config object for the whole run. */
export function createContenders(
  configs: { appauth: AuthConfig; authjs: AuthJsConfig } = { appauth: appauthConfig(), authjs: authjsConfig() },
): [Contender, Contender] {
  return [
    {
      id: "appauth",
      label: "appauth",
      sessionCookie: "appauth.session-token",
      csrfCookie: "appauth.csrf-token",
      handle: (request) => Auth(request, configs.appauth),
    },
    {
      id: "authjs",
      label: "@auth/core",
      sessionCookie: "authjs.session-token",
      csrfCookie: "authjs.csrf-token",
      handle: (request) => AuthJs(request, configs.authjs),
    },
  ];
}

/**
 * Environment variables either library reads would make them answer on another origin or with
 * another secret than the config says; the benchmark compares the configs above and nothing else.
 */
export function isolateFromEnvironment(): string[] {
  const removed: string[] = [];
  for (const name of Object.keys(process.env)) {
    if (/^(APPAUTH|AUTH|NEXTAUTH)_/.test(name)) {
      delete process.env[name];
      removed.push(name);
    }
  }
  return removed;
}
