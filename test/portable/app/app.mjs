/**
 * The application under test on every runtime: written once, against the INSTALLED package (bare
 * `appauth/...` specifiers resolve in the temp project the harness installs the packed tarball into),
 * and wrapped per runtime by a few lines of server glue (node.mjs, bun.mjs, deno.mjs, workerd.mjs).
 *
 * Two configurations side by side:
 *   /auth/*  JWT sessions: credentials, OIDC (the test OP on loopback), email links through Resend's
 *            HTTP API (pointed at a stand-in with `[customFetch]`), passkeys; in-memory store and rate limits.
 *   /db/*    database sessions through the store the runtime reaches (`adapter`, given by the glue):
 *            email links and OIDC.
 * Plain JavaScript so that Node runs it as is; the settings come from the glue (environment or bindings).
 */
import { Auth, customFetch } from "appauth";
import { MemoryAdapter } from "appauth/adapters/memory";
import Credentials from "appauth/providers/credentials";
import Passkey from "appauth/providers/passkey";
import Resend from "appauth/providers/resend";

/** The one user the credentials provider knows. */
const USERS = { ada: { password: "correct horse battery staple", user: { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com" } } };

/**
 * @param {{ secret: string, issuer: string, clientId: string, clientSecret: string, mailApi: string, runtime: string }} settings
 * @param {{ databaseAdapter: object, store: string }} database the adapter behind /db and what it is (shown at /whoami)
 * @returns {(request: Request) => Promise<Response>}
 */
export function createApp(settings, database) {
  // Resend's API, reached at the test's stand-in: the provider's documented fetch override, nothing patched.
  const toStandIn = (input, init) => fetch(String(input).replace("https://api.resend.com", settings.mailApi), init);
  const email = () => Resend({ apiKey: "re_test_key", from: "Portable <auth@portable.test>", [customFetch]: toStandIn });
  const oidc = () => ({
    id: "oidc",
    name: "Test OP",
    type: "oidc",
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
  });
  // The test driver names its client in a header, as a platform's own header would (rate limits per client).
  const clientAddress = (request) => request.headers.get("x-portable-client");

  const jwtConfig = {
    basePath: "/auth",
    secret: settings.secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    rateLimit: { credentials: { perClient: 3 }, clientAddress },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => {
          const known = USERS[username];
          return known && known.password === password ? { ...known.user } : null;
        },
      }),
      oidc(),
      email(),
      Passkey(),
    ],
  };
  const databaseConfig = {
    basePath: "/db",
    secret: settings.secret,
    trustHost: true,
    adapter: database.databaseAdapter,
    session: { strategy: "database" },
    rateLimit: { clientAddress },
    providers: [oidc(), email()],
  };

  return async function handle(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/whoami") return Response.json({ runtime: settings.runtime, store: database.store });
    if (pathname === "/auth" || pathname.startsWith("/auth/")) return Auth(request, jwtConfig);
    if (pathname === "/db" || pathname.startsWith("/db/")) return Auth(request, databaseConfig);
    return new Response("not found", { status: 404 });
  };
}
