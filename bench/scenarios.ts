/**
 * What is measured, and the checks that keep the benchmark off error paths: a real sign-in with
 * each library provides the cookies, every warm-up response is checked in full, and every measured
 * response is checked cheaply (status, redirect target).
 */
import { BASE_PATH, BENCH_USER, ORIGIN, PASSWORD, USERNAME, type Contender } from "./contenders.js";

/** Where a successful sign-in is sent back to. */
export const CALLBACK_URL = `${ORIGIN}/dashboard`;

/**
 * The cookies and CSRF pair a browser holds after signing in with one library. For a database
 * session (`bench/database.ts`) the record is created through the adapter, there is no sign-in and
 * no CSRF pair (both empty), and `signedInCookies` is the session cookie alone.
 */
export interface Fixture {
  csrfToken: string;
  /** `name=value` of the CSRF cookie, as a browser would send it. */
  csrfCookie: string;
  /** The whole `Cookie` header after the sign-in: CSRF cookie, session cookie, and any other the library set. */
  signedInCookies: string;
}

/** The stores a database-session scenario runs on (`bench/database.ts`). */
export type DatabaseKind = "memory" | "sqlite" | "postgres";

export type ScenarioId = "session" | "session-100" | "signin" | "csrf" | "db-memory" | "db-sqlite" | "db-postgres";

export interface Scenario {
  id: ScenarioId;
  title: string;
  /**
   * Set on the database-session scenarios: they run on contenders configured with
   * `strategy: "database"` on this store, with fixtures from `openDatabase`, not the JWT ones.
   */
  database?: DatabaseKind;
  /** Requests started together and awaited together (100 concurrent reads); 1 when absent (one after another). */
  concurrency?: number;
  request(fixture: Fixture): Request;
  /** Run on every measured response: cheap, no body read. Null when the response is the expected one. */
  quickCheck(response: Response): string | null;
  /** Run on every warm-up response: status, headers and body. Null when the response is the expected one. */
  fullCheck(contender: Contender, fixture: Fixture, response: Response): Promise<string | null>;
}

/** Thrown when a library does not answer as expected: the benchmark stops rather than time an error path. */
export class Misbehaviour extends Error {
  constructor(contender: Contender, what: string, problem: string) {
    super(`${contender.label} misbehaved on ${what}: ${problem}`);
    this.name = "Misbehaviour";
  }
}

function url(path: string): string {
  return `${ORIGIN}${BASE_PATH}${path}`;
}

function signInRequest(csrfToken: string, csrfCookie: string): Request {
  const body = new URLSearchParams({ csrfToken, username: USERNAME, password: PASSWORD, callbackUrl: CALLBACK_URL });
  return new Request(url("/callback/credentials"), {
    method: "POST",
    body,
    headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
  });
}

/** `name=value` pairs of a response's `Set-Cookie` headers, skipping cookies it expires. */
export function cookiesSet(response: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";", 1)[0]!;
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const value = pair.slice(eq + 1);
    if (value === "" || /;\s*max-age=0\b/i.test(header)) continue;
    out.set(pair.slice(0, eq), value);
  }
  return out;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return `(not JSON) ${text.slice(0, 120)}`;
  }
}

function describeRedirect(response: Response): string {
  return `status ${response.status}, Location ${response.headers.get("location") ?? "(none)"}`;
}

async function checkSignIn(contender: Contender, response: Response): Promise<string | null> {
  if (response.status !== 302) return `expected a 302, got ${describeRedirect(response)}`;
  if (response.headers.get("location") !== CALLBACK_URL) return `expected a redirect to ${CALLBACK_URL}, got ${describeRedirect(response)}`;
  const session = cookiesSet(response).get(contender.sessionCookie);
  if (!session) return `the 302 set no ${contender.sessionCookie} cookie`;
  if (session.split(".").length !== 5) return `${contender.sessionCookie} is not a compact JWE`;
  return null;
}

export async function checkSession(_contender: Contender, response: Response): Promise<string | null> {
  if (response.status !== 200) return `expected 200, got ${response.status}`;
  const body = await readJson(response);
  if (body === null) return "the session is null: the session cookie was not accepted";
  const session = body as { user?: { email?: unknown }; expires?: unknown };
  if (session.user?.email !== BENCH_USER.email) return `unexpected session body ${JSON.stringify(body)}`;
  if (typeof session.expires !== "string") return `the session has no expires: ${JSON.stringify(body)}`;
  return null;
}

/**
 * Signs in for real: GET /csrf for a CSRF pair, POST the credentials with it, then GET /session
 * with the resulting cookies. Throws `Misbehaviour` at the first unexpected answer.
 */
export async function signInOnce(contender: Contender): Promise<Fixture> {
  const csrfResponse = await contender.handle(new Request(url("/csrf")));
  if (csrfResponse.status !== 200) throw new Misbehaviour(contender, "GET /csrf", `status ${csrfResponse.status}`);
  const csrfBody = (await readJson(csrfResponse)) as { csrfToken?: unknown } | null;
  const csrfToken = csrfBody?.csrfToken;
  if (typeof csrfToken !== "string" || !csrfToken) {
    throw new Misbehaviour(contender, "GET /csrf", `no csrfToken in ${JSON.stringify(csrfBody)}`);
  }
  const csrfValue = cookiesSet(csrfResponse).get(contender.csrfCookie);
  if (!csrfValue) throw new Misbehaviour(contender, "GET /csrf", `no ${contender.csrfCookie} cookie was set`);
  const csrfCookie = `${contender.csrfCookie}=${csrfValue}`;

  const signIn = await contender.handle(signInRequest(csrfToken, csrfCookie));
  const signInProblem = await checkSignIn(contender, signIn);
  if (signInProblem) throw new Misbehaviour(contender, "the first sign-in", signInProblem);
  const jar = new Map([[contender.csrfCookie, csrfValue], ...cookiesSet(signIn)]);
  const signedInCookies = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

  const fixture: Fixture = { csrfToken, csrfCookie, signedInCookies };
  const session = await contender.handle(SCENARIOS.session.request(fixture));
  const sessionProblem = await checkSession(contender, session);
  if (sessionProblem) throw new Misbehaviour(contender, "the first GET /session", sessionProblem);
  return fixture;
}

/**
 * GET /session under the database strategy: the session cookie holds a random token, the library
 * loads the record and its user through the adapter. Checked like the JWT read: 200, the user's
 * email, an expiry. The measured responses are only checked for status 200; `measureScenario`
 * checks one more response in full after the rounds, and `bench/database.ts` counts the adapter's
 * writes, so a session that vanished or was rewritten on every read would not go unnoticed.
 */
function databaseSessionScenario(id: ScenarioId, database: DatabaseKind, store: string): Scenario {
  return {
    id,
    title: `GET /session (database, ${store})`,
    database,
    request: (fixture) => new Request(url("/session"), { headers: { cookie: fixture.signedInCookies } }),
    quickCheck: (response) => (response.status === 200 ? null : `status ${response.status}`),
    fullCheck: (contender, _fixture, response) => checkSession(contender, response),
  };
}

const jwtSessionRead: Scenario = {
  id: "session",
  title: "GET /session (valid JWT)",
  request: (fixture) => new Request(url("/session"), { headers: { cookie: fixture.signedInCookies } }),
  quickCheck: (response) => (response.status === 200 ? null : `status ${response.status}`),
  fullCheck: (contender, _fixture, response) => checkSession(contender, response),
};

export const SCENARIOS: Record<ScenarioId, Scenario> = {
  session: jwtSessionRead,
  "session-100": { ...jwtSessionRead, id: "session-100", title: "GET /session (valid JWT), 100 concurrent", concurrency: 100 },
  signin: {
    id: "signin",
    title: "POST /callback/credentials",
    request: (fixture) => signInRequest(fixture.csrfToken, fixture.csrfCookie),
    quickCheck: (response) =>
      response.status === 302 && response.headers.get("location") === CALLBACK_URL ? null : describeRedirect(response),
    fullCheck: (contender, _fixture, response) => checkSignIn(contender, response),
  },
  csrf: {
    id: "csrf",
    title: "GET /csrf (cookie held)",
    request: (fixture) => new Request(url("/csrf"), { headers: { cookie: fixture.csrfCookie } }),
    quickCheck: (response) => (response.status === 200 ? null : `status ${response.status}`),
    fullCheck: async (_contender, fixture, response) => {
      if (response.status !== 200) return `expected 200, got ${response.status}`;
      const body = (await readJson(response)) as { csrfToken?: unknown } | null;
      // Both libraries keep the token while its cookie verifies.
      return body?.csrfToken === fixture.csrfToken ? null : `expected the held token back, got ${JSON.stringify(body)}`;
    },
  },
  "db-memory": databaseSessionScenario("db-memory", "memory", "memory adapter"),
  "db-sqlite": databaseSessionScenario("db-sqlite", "sqlite", "SQLite"),
  "db-postgres": databaseSessionScenario("db-postgres", "postgres", "PostgreSQL"),
};
