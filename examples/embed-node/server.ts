/**
 * A plain `node:http` server that signs people in with appauth's credentials flow and nothing else of
 * the library: the machine definitions from `appauth/machines`, run with this server's own effects
 * (its user table, its `signIn` rule, its session store, its redirect policy). No `Auth()`, no router,
 * no appauth cookies: the flow decides, the server does the I/O.
 *
 *   npx tsx examples/embed-node/server.ts   # then open http://localhost:3005
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import {
  credentialsSignInMachine,
  signInCompletionMachine,
  type CredentialsSignInInput,
  type CredentialsSignInOutput,
  type RequestFacts,
} from "appauth/machines";
import { createActor, fromPromise, toPromise } from "xstate";

interface StoredUser {
  id: string;
  name: string;
  salt: Buffer;
  hash: Buffer;
  /** A suspended account: its password still checks out, but the `signIn` rule refuses it. */
  suspended?: boolean;
}

function hashed(password: string, salt: Buffer = randomBytes(16)): { salt: Buffer; hash: Buffer } {
  return { salt, hash: scryptSync(password, salt, 32) };
}

export interface EmbedServerOptions {
  /** Users by login name; passwords are hashed when the server starts. */
  users: Record<string, { name: string; password: string; suspended?: boolean }>;
}

export interface EmbedServer {
  server: Server;
  /** Who holds each live session id (the server's own store). */
  sessions: Map<string, string>;
}

const SESSION_COOKIE = "sid";

/**
 * The credentials machine, given this server's effects. `request` is the request's plain facts the
 * server passed in; the machine hands them to the effects that want them (here `issueSession`).
 */
function bindFlow(users: Map<string, StoredUser>, sessions: Map<string, string>) {
  // This server's own password-guessing limit: at most 5 attempts per login name per 15 minutes,
  // counted before the password is checked; a right password clears the name's count.
  const attempts = new Map<string, { count: number; resetAt: number }>();
  const WINDOW_MS = 15 * 60 * 1000;
  const MAX_ATTEMPTS = 5;
  const nameOf = (credentials: Record<string, unknown>) => String(credentials.username ?? "").trim().toLowerCase();
  return credentialsSignInMachine.provide({
    actors: {
      checkAttempt: fromPromise(async ({ input }) => {
        const name = nameOf(input.credentials);
        const now = Date.now();
        const seen = attempts.get(name);
        const entry = seen && seen.resetAt > now ? { ...seen, count: seen.count + 1 } : { count: 1, resetAt: now + WINDOW_MS };
        attempts.set(name, entry);
        const allowed = entry.count <= MAX_ATTEMPTS;
        return { allowed, retryAfter: allowed ? 0 : Math.ceil((entry.resetAt - now) / 1000), counts: { perIdentifier: entry.count } };
      }),
      authorize: fromPromise(async ({ input }) => {
        const { username, password } = input.credentials;
        if (typeof username !== "string" || typeof password !== "string") return null;
        const user = users.get(username);
        // Hash even for an unknown name, so timing does not tell which names exist.
        const { hash } = hashed(password, user?.salt ?? randomBytes(16));
        if (!user || !timingSafeEqual(hash, user.hash)) return null;
        return { id: user.id, name: user.name };
      }),
      completeSignIn: signInCompletionMachine.provide({
        actors: {
          signInCallback: fromPromise(async ({ input }) => ![...users.values()].find((u) => u.id === input.user.id)?.suspended),
          issueSession: fromPromise(async ({ input }) => {
            const id = randomBytes(32).toString("base64url");
            sessions.set(id, String(input.user.id));
            const { secure } = input.request;
            return [{ name: SESSION_COOKIE, value: id, options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure } }];
          }),
          // Only paths on this server: an absolute or protocol-relative URL goes home instead.
          resolveRedirect: fromPromise(async ({ input }) => (/^\/(?![/\\])/.test(input.url) ? input.url : "/")),
        },
      }),
    },
    actions: {
      clearFailures: ({ context }) => {
        attempts.delete(nameOf(context.credentials));
      },
    },
  });
}

/** The flow's input for one sign-in: the form's fields and the request's facts, all plain data. */
function flowInput(form: URLSearchParams, facts: RequestFacts): CredentialsSignInInput {
  return {
    providerId: "password",
    credentials: { username: form.get("username") ?? "", password: form.get("password") ?? "" },
    callbackUrl: form.get("callbackUrl") ?? "/",
    hasAdapter: false,
    request: facts,
  };
}

function cookieHeader(cookie: { name: string; value: string; options: { secure?: boolean } }): string {
  return `${cookie.name}=${cookie.value}; Path=/; HttpOnly; SameSite=Lax${cookie.options.secure ? "; Secure" : ""}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>embed</title>${body}`);
}

const LOGIN_FORM =
  '<form method="post" action="/login"><input name="username"><input name="password" type="password">' +
  '<button>Sign in</button></form>';

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) return undefined;
  let body = "";
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 8192) return undefined;
  }
  return new URLSearchParams(body);
}

function sessionOf(req: IncomingMessage, sessions: Map<string, string>): string | undefined {
  const cookie = (req.headers.cookie ?? "").split(/;\s*/).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return cookie ? sessions.get(cookie.slice(SESSION_COOKIE.length + 1)) : undefined;
}

export function createEmbedServer(options: EmbedServerOptions): EmbedServer {
  const users = new Map<string, StoredUser>();
  for (const [login, u] of Object.entries(options.users)) users.set(login, { id: login, name: u.name, suspended: u.suspended, ...hashed(u.password) });
  const sessions = new Map<string, string>();
  const flow = bindFlow(users, sessions);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secure = false;
    const origin = `http://${req.headers.host ?? "localhost"}`;
    const path = new URL(req.url ?? "/", origin).pathname;
    if (req.method === "GET" && path === "/") {
      const userId = sessionOf(req, sessions);
      const user = userId ? [...users.values()].find((u) => u.id === userId) : undefined;
      return page(res, 200, user ? `<p>Signed in as <b>${escapeHtml(user.name)}</b></p>` : LOGIN_FORM);
    }
    if (req.method !== "POST" || path !== "/login") return page(res, 404, "<p>Not found</p>");
    // A login form posted from another site would sign the browser in as the attacker: same origin only.
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return page(res, 403, "<p>Cross-site request</p>");
    const form = await readForm(req);
    if (!form) return page(res, 400, "<p>Expected a form</p>");

    const actor = createActor(flow, { input: flowInput(form, { origin, baseUrl: origin, secure }) });
    const done = toPromise(actor);
    actor.start();
    const output: CredentialsSignInOutput = await done;
    switch (output.outcome) {
      case "signedIn":
        res.writeHead(302, { location: output.redirectTo, "set-cookie": output.cookies.map(cookieHeader) }).end();
        return;
      case "diverted":
        res.writeHead(302, { location: "/" }).end();
        return;
      case "refused":
        if (output.failure.as === "RateLimited") return page(res, 429, `<p>Too many attempts: try again later</p>`);
        return page(res, 401, `<p>Sign-in refused</p>${LOGIN_FORM}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) page(res, 500, "<p>Something went wrong</p>");
      else res.end();
    });
  });
  return { server, sessions };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3005);
  createEmbedServer({ users: { ada: { name: "Ada Lovelace", password: "correct horse battery staple" } } }).server.listen(port, () => {
    console.log(`embed-node: http://localhost:${port} (ada / correct horse battery staple)`);
  });
}
