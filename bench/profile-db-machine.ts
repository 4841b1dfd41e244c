/**
 * Pricing the database-session machine's XState overhead on the read path (record found, no
 * extension due), and what two other ways of running the same decisions would cost. The two
 * alternatives are prototypes written here for pricing only — the same states, guards, context
 * updates and outputs as machines/database-session.machine.ts for the read path:
 *
 * - "effects as events": each effect is an entry action that starts the work and sends the result
 *   back to the actor as an event, so a flow is one actor, with no child actor (and no
 *   AbortController) per effect;
 * - "pure transitions": the same machine with no actor at all, driven by XState's pure
 *   `initialTransition` / `transition`: a loop runs the effect a state asks for and feeds the
 *   result back as the next event.
 *
 * With no `--store`, the effects return at once (every microsecond is machinery, in a hot loop).
 * With `--store memory|sqlite|postgres` they are the real ones — appauth's `loadDatabaseSession`
 * on that adapter and the default session callback — which is where the machinery's CPU cost
 * grows (see profile-pg-roundtrip.ts); the CPU column says what each variant burns.
 *
 *   npx tsx bench/profile-db-machine.ts [--store memory|sqlite|postgres] [--iterations N] [--passes N]
 */
import { assign, createActor, emit, fromPromise, initialTransition, setup, transition, type AnyStateMachine } from "xstate";
import { databaseSessionMachine, type DatabaseSessionInput, type DatabaseSessionOutput } from "../machines/database-session.machine.js";
import { MemoryAdapter } from "../src/adapters/memory/index.js";
import { getRuntime, type Runtime } from "../src/config/runtime.js";
import type { SetCookie } from "../src/cookies.js";
import { bindDatabaseSession } from "../src/flows/database-session.js";
import { loadTokenRefresh } from "../src/flows/token-refresh-loader.js";
import { runFlow } from "../src/flows/run.js";
import { buildContext } from "../src/router.js";
import { requestFacts, type RequestContext } from "../src/request-context.js";
import { ROUTE_PATHS } from "../src/routes.js";
import { loadDatabaseSession } from "../src/session/database-session.js";
import type { AdapterSession, AdapterUser, Session } from "../src/types.js";
import { BASE_PATH, ORIGIN, databaseConfigs, isolateFromEnvironment } from "./contenders.js";
import { openDatabase } from "./database.js";
import { measurePieces, microOptions, type Piece } from "./micro.js";
import type { DatabaseKind } from "./scenarios.js";

type Loaded = { session: AdapterSession; user: AdapterUser };

interface Ctx extends DatabaseSessionInput {
  record?: AdapterSession;
  user?: AdapterUser;
  session?: Session;
  cookies: SetCookie[];
  failure?: { error: unknown };
}
type EffectEvent = { type: "effect.done"; output: unknown } | { type: "effect.error"; error: unknown };

/** The two effects of the read path. */
interface Effects {
  loadSession(context: Ctx): Promise<Loaded | null>;
  sessionCallback(context: Ctx): Promise<Session>;
}
type EffectName = keyof Effects;
type Sender = { send(event: EffectEvent): void };

/** The read path of the database-session machine with each effect an entry action whose result comes back as an event. */
function effectsAsEvents(start: (name: EffectName, context: Ctx, self: Sender) => void) {
  return setup({
    types: { input: {} as DatabaseSessionInput, context: {} as Ctx, events: {} as EffectEvent, output: {} as DatabaseSessionOutput },
    actions: {
      load: ({ context, self }) => start("loadSession", context, self as unknown as Sender),
      callback: ({ context, self }) => start("sessionCallback", context, self as unknown as Sender),
      rememberRecord: assign(({ event }) => {
        const found = (event as { output: Loaded }).output;
        return { record: found.session, user: found.user };
      }),
      rememberSession: assign(({ event }) => ({ session: (event as { output: Session }).output })),
      recordFailure: assign(({ event }) => ({ failure: { error: (event as { error: unknown }).error } })),
      announceSession: emit(({ context }) => ({ type: "session" as const, session: context.session! })),
    },
    guards: {
      hasToken: ({ context }) => typeof context.sessionToken === "string" && context.sessionToken.length > 0,
      sessionFound: ({ event }) => (event as { output: unknown }).output !== null,
      extensionDue: ({ context }) => context.now - (context.record!.expires.valueOf() - context.maxAge * 1000) >= context.updateAge * 1000,
    },
  }).createMachine({
    id: "databaseSessionPrototype",
    context: ({ input }) => ({ ...input, cookies: [] }),
    initial: "checkingCookie",
    states: {
      checkingCookie: { always: [{ guard: "hasToken", target: "loading" }, { target: "noSession" }] },
      loading: {
        entry: "load",
        on: {
          "effect.done": [{ guard: "sessionFound", target: "checkingExpiry", actions: "rememberRecord" }, { target: "invalid" }],
          "effect.error": { target: "invalid", actions: "recordFailure" },
        },
      },
      // The extension branch is not taken on the read path priced here.
      checkingExpiry: { always: [{ guard: "extensionDue", target: "invalid" }, { target: "runningSessionCallback" }] },
      runningSessionCallback: {
        entry: "callback",
        on: {
          "effect.done": { target: "active", actions: "rememberSession" },
          "effect.error": { target: "invalid", actions: "recordFailure" },
        },
      },
      active: {
        type: "final",
        entry: "announceSession",
        output: ({ context }) => ({ outcome: "active", session: context.session!, cookies: context.cookies }),
      },
      noSession: { type: "final", output: () => ({ outcome: "none" }) },
      invalid: { type: "final", output: () => ({ outcome: "invalid" }) },
    },
    output: ({ event }) => (event as unknown as { output: DatabaseSessionOutput }).output,
  });
}

/** Runs an actor to its end the way src/flows/run.ts does (listener for emitted events, subscribe, start, stop). */
function runActor(machine: AnyStateMachine, input: DatabaseSessionInput): Promise<unknown> {
  const actor = createActor(machine, { input });
  actor.on("*", () => undefined);
  const done = new Promise((resolve, reject) => actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject }));
  actor.start();
  return done.finally(() => actor.stop());
}

/** The four ways of running the read path, on the given effects. */
function variants(rt: Runtime, effects: Effects, current: AnyStateMachine, req: RequestContext) {
  const oneActor = effectsAsEvents((name, context, self) => {
    effects[name](context).then(
      (output) => self.send({ type: "effect.done", output }),
      (error: unknown) => self.send({ type: "effect.error", error }),
    );
  });
  const noActor = effectsAsEvents(() => undefined);
  async function runPure(input: DatabaseSessionInput): Promise<unknown> {
    let [snapshot, actions] = initialTransition(noActor, input);
    while (snapshot.status === "active") {
      const action = actions.find((a) => a.type === "load" || a.type === "callback");
      if (!action) throw new Error(`stuck in ${JSON.stringify(snapshot.value)}`);
      let event: EffectEvent;
      try {
        event = { type: "effect.done", output: await effects[action.type === "load" ? "loadSession" : "sessionCallback"](snapshot.context) };
      } catch (error) {
        event = { type: "effect.error", error };
      }
      [snapshot, actions] = transition(noActor, snapshot, event);
    }
    return snapshot.output;
  }
  return {
    current: (input: DatabaseSessionInput) => runFlow(rt, current, input as never, req),
    currentBare: (input: DatabaseSessionInput) => runActor(current, input),
    oneActor: (input: DatabaseSessionInput) => runActor(oneActor, input),
    pure: runPure,
    noMachine: async (input: DatabaseSessionInput) => {
      const context = { ...input, cookies: [] } as Ctx;
      const found = (await effects.loadSession(context))!;
      return effects.sessionCallback({ ...context, record: found.session, user: found.user });
    },
  };
}

function sessionOf(user: AdapterUser, expires: Date): Session {
  return { user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: expires.toISOString() };
}

async function main(): Promise<void> {
  isolateFromEnvironment();
  const at = process.argv.indexOf("--store");
  const store = at >= 0 ? (process.argv[at + 1] as DatabaseKind) : undefined;
  if (store !== undefined && !["memory", "sqlite", "postgres"].includes(store)) throw new Error(`unknown store ${store}`);
  const options = microOptions(store === "postgres" ? { iterations: 300, passes: 11 } : { iterations: 1000, passes: 15 });

  const setupDb = store ? await openDatabase(store) : undefined;
  if (setupDb && "skipped" in setupDb) throw new Error(setupDb.skipped);
  try {
    const adapter = setupDb?.adapters[0];
    const token = setupDb?.sessionTokens[0] ?? "t";
    const rt = getRuntime(databaseConfigs({ appauth: adapter ?? MemoryAdapter(), authjs: {} }).appauth);
    const req = await buildContext(rt, new Request(`${ORIGIN}${BASE_PATH}/session`, { headers: { cookie: `appauth.session-token=${token}` } }), ROUTE_PATHS);
    // The session callback runs as an effect, as it does when the application configures one: the
    // prototypes below invoke it too, so every variant makes the same two effect calls.
    const input: DatabaseSessionInput = {
      sessionToken: token,
      now: Date.now(),
      maxAge: rt.session.maxAge,
      updateAge: rt.session.updateAge,
      callbacks: { session: true },
      request: requestFacts(req),
    };

    let effects: Effects;
    let current: AnyStateMachine;
    if (adapter) {
      effects = {
        loadSession: (context) => loadDatabaseSession(rt, context.sessionToken!, context.now),
        sessionCallback: async (context) =>
          rt.callbacks.session({ session: sessionOf(context.user!, context.record!.expires), user: context.user!, token: undefined as never }),
      };
      current = bindDatabaseSession(rt, loadTokenRefresh);
    } else {
      const DAY = 86_400_000;
      const loaded: Loaded = {
        session: { sessionToken: token, userId: "u", expires: new Date(Date.now() + 30 * DAY) },
        user: { id: "u", name: "Bench User", email: "bench@example.com", emailVerified: null, image: null },
      };
      const session = sessionOf(loaded.user, loaded.session.expires);
      effects = { loadSession: async () => loaded, sessionCallback: async () => session };
      current = databaseSessionMachine.provide({
        actors: {
          loadSession: fromPromise(async (): Promise<Loaded | null> => loaded),
          extendSession: fromPromise(async (): Promise<{ session: AdapterSession; cookies: SetCookie[] }> => ({ session: loaded.session, cookies: [] })),
          sessionCallback: fromPromise(async () => session),
        },
      });
    }
    const run = variants(rt, effects, current, req);

    // Every variant must reach the same answer before it is timed.
    for (const [label, variant] of Object.entries(run)) {
      const output = (await variant(input)) as DatabaseSessionOutput | Session;
      const session = "outcome" in output ? (output.outcome === "active" ? output.session : null) : output;
      if (session?.user?.email !== "bench@example.com") throw new Error(`${label}: unexpected output ${JSON.stringify(output)}`);
    }

    const pieces: Piece[] = [
      { label: "current machine through runFlow (2 invoked promise actors)", run: () => run.current(input) },
      { label: "current machine, bare actor (no runFlow)", run: () => run.currentBare(input) },
      { label: "effects as events: one actor, no child actors", run: () => run.oneActor(input) },
      { label: "pure transitions: no actor", run: () => run.pure(input) },
      { label: "for scale: the two effects awaited, no machine", run: () => run.noMachine(input) },
    ];
    const effectsDescription = setupDb ? `real effects on ${setupDb.description}` : "instant effects (machinery only)";
    await measurePieces(`database-session read path, ${effectsDescription}`, pieces, options);
  } finally {
    await setupDb?.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
