/**
 * Where the time of one database-session GET /session goes, for appauth beside @auth/core on the
 * same store: each library's whole request, each library's adapter read alone (so the store's own
 * cost, and any difference between the two instances, shows), and appauth's pieces — request
 * context, the database session machine with its real effects, with effects that return at once
 * (the XState cost), the same effects with no machine, and the Response. Micro-timings are
 * sequential awaits in interleaved passes (see micro.ts).
 *
 *   npx tsx bench/profile-db-session.ts [--store memory|sqlite|postgres] [--iterations 1000] [--passes 15]
 */
import { fromPromise } from "xstate";
import { databaseSessionMachine } from "../machines/database-session.machine.js";
import { getRuntime } from "../src/config/runtime.js";
import { bindDatabaseSession } from "../src/flows/database-session.js";
import { loadTokenRefresh } from "../src/flows/token-refresh-loader.js";
import { runFlow } from "../src/flows/run.js";
import { bindSessionMachine, handleSession } from "../src/flows/session.js";
import { toResponse } from "../src/response.js";
import { buildContext } from "../src/router.js";
import { requestFacts } from "../src/request-context.js";
import { ROUTE_PATHS } from "../src/routes.js";
import { loadDatabaseSession } from "../src/session/database-session.js";
import type { SetCookie } from "../src/cookies.js";
import type { AdapterSession, AdapterUser, AuthConfig, Session } from "../src/types.js";
import { databaseConfigs, isolateFromEnvironment } from "./contenders.js";
import { openDatabase } from "./database.js";
import { measurePieces, microOptions, type Piece } from "./micro.js";
import { SCENARIOS, type DatabaseKind, type ScenarioId } from "./scenarios.js";

function option(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  isolateFromEnvironment();
  const store = (option("--store") ?? "memory") as DatabaseKind;
  const scenario = SCENARIOS[`db-${store}` as ScenarioId];
  if (!scenario?.database) throw new Error(`unknown store ${store}: memory, sqlite or postgres`);
  const options = microOptions(store === "postgres" ? { iterations: 300, passes: 15 } : { iterations: 1000, passes: 15 });

  const setup = await openDatabase(scenario.database);
  if ("skipped" in setup) throw new Error(`${scenario.title}: ${setup.skipped}`);
  try {
    const [appauth, authjs] = setup.contenders;
    const [appauthAdapter, authjsAdapter] = setup.adapters;
    const [appauthToken, authjsToken] = setup.sessionTokens;
    const request = (i: 0 | 1) => scenario.request(setup.fixtures[i]);

    // A runtime for a config identical to the contender's, on the same adapter instance.
    const config: AuthConfig = databaseConfigs({ appauth: appauthAdapter, authjs: authjsAdapter }).appauth;
    const rt = getRuntime(config);
    const ctx = await buildContext(rt, request(0), ROUTE_PATHS);
    const machines = { jwt: bindSessionMachine(rt, loadTokenRefresh), database: bindDatabaseSession(rt, loadTokenRefresh) };
    // The default configuration (no session callback), as handleSession passes it.
    const input = {
      sessionToken: appauthToken,
      now: Date.now(),
      maxAge: rt.session.maxAge,
      updateAge: rt.session.updateAge,
      callbacks: rt.configuredCallbacks,
      request: requestFacts(ctx),
    };
    type Loaded = { session: AdapterSession; user: AdapterUser };
    const loaded: Loaded = (await loadDatabaseSession(rt, appauthToken, Date.now()))!;
    const session: Session = {
      user: { name: loaded.user.name ?? null, email: loaded.user.email ?? null, image: loaded.user.image ?? null },
      expires: loaded.session.expires.toISOString(),
    };
    const plan = await handleSession(rt, machines, ctx);

    // The machine with effects that return at once: what the machine itself costs.
    const instant = databaseSessionMachine.provide({
      actors: {
        loadSession: fromPromise(async (): Promise<Loaded | null> => loaded),
        extendSession: fromPromise(async (): Promise<{ session: AdapterSession; cookies: SetCookie[] }> => ({ session: loaded.session, cookies: [] })),
        sessionCallback: fromPromise(async () => session),
      },
    });

    // The same work as the machine's effects, one after the other with no machine.
    async function withoutMachine(): Promise<unknown> {
      const found = await loadDatabaseSession(rt, appauthToken, Date.now());
      if (!found) throw new Error("the session did not load");
      const { user } = found;
      return rt.callbacks.session({
        session: { user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: found.session.expires.toISOString() },
        user,
        token: undefined as never,
      });
    }

    const pieces: Piece[] = [
      { label: "@auth/core Auth(): whole GET /session, incl. new Request", run: () => authjs.handle(request(1)) },
      { label: "appauth Auth(): whole GET /session, incl. new Request", run: () => appauth.handle(request(0)) },
      { label: "  new Request(url, { cookie }) [outside the bench's clock]", run: () => request(0) },
      { label: "  @auth/core's adapter: getSessionAndUser alone", run: () => authjsAdapter.getSessionAndUser!(authjsToken) },
      { label: "  appauth's adapter: getSessionAndUser alone", run: () => appauthAdapter.getSessionAndUser!(appauthToken) },
      { label: "  buildContext(rt, request), incl. new Request", run: () => buildContext(rt, request(0), ROUTE_PATHS) },
      { label: "  handleSession(): machine + effects + plan", run: () => handleSession(rt, machines, ctx) },
      { label: "    runFlow(bound machine) with real effects", run: () => runFlow(rt, machines.database, input, ctx) },
      { label: "    runFlow(machine) with instant effects = XState cost", run: () => runFlow(rt, instant, input, ctx) },
      { label: "    the same effects with no machine", run: withoutMachine },
      { label: "  toResponse(plan)", run: () => toResponse(plan, { returnRedirect: false }) },
    ];

    console.log(`${scenario.title}: ${setup.description}\n`);
    await measurePieces(`GET /session on ${store}, piece by piece`, pieces, options);
  } finally {
    await setup.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
