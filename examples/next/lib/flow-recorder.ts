/**
 * The demo's flow recorder: an `inspect` observer that keeps, for each browser, the path of its last
 * sign-in (any method, both requests of a two-request flow), its last session read that had a cookie
 * to read, and its last sign-out. A path is the states each machine of the run entered and the events
 * that moved it, in order; nothing else of the (already redacted) inspection stream is kept, so the
 * flows page shows no value a flow handled: no token, cookie, password, address or name.
 *
 * Memory is bounded: four flows of each kind per browser, a capped number of browsers and of steps
 * per flow.
 * Which browser a run belongs to is asked (`viewerOf`) when it starts; a run nobody owns is dropped.
 */
import type { InspectionEvent } from "xstate";

/** The flows the page draws, and the machines (by id) that run them. */
export type FlowKind = "signIn" | "sessionRead" | "signOut";

export const FLOW_KINDS: readonly FlowKind[] = ["signIn", "sessionRead", "signOut"];

const KIND_OF_MACHINE: Readonly<Record<string, FlowKind>> = {
  credentialsSignIn: "signIn",
  oauth: "signIn",
  email: "signIn",
  webauthn: "signIn",
  session: "sessionRead",
  databaseSession: "sessionRead",
  signOut: "signOut",
};

export interface FlowStep {
  /** Position in the whole run, across its machines and requests (1, 2, ...). */
  readonly order: number;
  /** The state entered, by its XState id (`credentialsSignIn.authorizing`). */
  readonly to: string;
  /** The state left, or undefined for the state a machine started (or resumed) in. */
  readonly from: string | undefined;
  /** What moved it, named as the diagrams name it: `done: authorize`, `always`, `callback.received`, `start`. */
  readonly event: string;
  /** The event type as XState names it (matches `data-event-type` in the diagrams); "" for always. */
  readonly eventType: string;
}

export interface MachinePath {
  /** The machine id, which is also the name of its diagram in visualizations/. */
  readonly machine: string;
  readonly steps: FlowStep[];
}

export interface RecordedFlow {
  readonly kind: FlowKind;
  /** The machine that ran the flow; the others in `machines` are machines it invoked. */
  readonly machine: string;
  readonly startedAt: Date;
  /** How many requests the flow took (2 for a sign-in that waited for a callback, a link or a passkey). */
  requests: number;
  /** Whether the flow reached a final state, or rests waiting for its next request. */
  ended: boolean;
  /** Whether steps were left out because the run went past the cap. */
  truncated: boolean;
  /** One path per machine, in the order they started. */
  readonly machines: MachinePath[];
}

/** Who ran a flow: a browser's id now, later (a promise), or nobody (the run is not kept). */
export type Viewer = string | undefined | Promise<string | undefined>;

export interface FlowRecorderOptions {
  /** Asked when a flow starts, in the context of the request that runs it. */
  viewerOf: () => Viewer;
  /** Browsers remembered at most (the least recently active are forgotten first). Default 100. */
  maxViewers?: number;
  /** Steps kept per flow at most. Default 400. */
  maxSteps?: number;
}

/** A run being recorded: the flow plus what is needed to read further events into it. */
interface LiveRun {
  flow: RecordedFlow;
  /** Machine id of each machine actor of the run, by session id. */
  readonly machineOf: Map<string, string>;
  /** The actor each invoke id started (`0.credentialsSignIn.authorizing` → `authorize`). */
  readonly invoked: Map<string, string>;
  owner: string | undefined;
  placed: boolean;
  steps: number;
  /**
   * An invoked machine reports its first moves before its parent reports the move that invoked it:
   * they are held (`holding` names the machine) until the parent's move is recorded.
   */
  holding: string | undefined;
  readonly held: Move[];
}

interface Move {
  readonly from: string | undefined;
  readonly to: string;
  readonly eventType: string;
}

const MAX_LIVE_RUNS = 64;
/** Flows of each kind kept per browser: the last that ended, and sign-ins started after it. */
const FLOWS_KEPT = 4;

export class FlowRecorder {
  /** Each browser's recent flows of each kind, oldest first. */
  private readonly viewers = new Map<string, Partial<Record<FlowKind, RecordedFlow[]>>>();
  /** Runs by the session id of their root actor, newest last. */
  private readonly live = new Map<string, LiveRun>();
  private readonly maxViewers: number;
  private readonly maxSteps: number;

  constructor(private readonly options: FlowRecorderOptions) {
    this.maxViewers = options.maxViewers ?? 100;
    this.maxSteps = options.maxSteps ?? 400;
  }

  /** The `inspect` observer: hand it every inspection event. */
  readonly observe = (event: InspectionEvent): void => {
    const actor = event.actorRef as unknown as ActorView;
    if (event.type === "@xstate.actor") {
      this.actorStarted(event.rootId, actor);
      return;
    }
    const run = this.live.get(event.rootId);
    const machine = run?.machineOf.get(actor.sessionId);
    if (!run || machine === undefined) return;
    if (event.type === "@xstate.microstep") {
      for (const transition of event._transitions as unknown as TransitionView[]) {
        for (const target of transition.target ?? []) this.step(run, machine, { from: transition.source, to: target, eventType: transition.eventType });
      }
      if (run.holding !== undefined && run.holding !== machine) this.release(run);
    } else if (event.type === "@xstate.snapshot") {
      const snapshot = event.snapshot as { status?: unknown; value?: unknown };
      const path = run.flow.machines.find((p) => p.machine === machine);
      if (path && path.steps.length === 0) {
        for (const id of stateIds(machine, snapshot.value)) this.step(run, machine, { from: undefined, to: id, eventType: "start" });
      }
      if (machine === run.flow.machine && snapshot.status === "done" && actor._parent === undefined) {
        run.flow.ended = true;
        this.live.delete(event.rootId);
        this.place(run);
      }
    }
  };

  /**
   * The last flow of each kind that `viewer` ran to its end, or, when none has ended yet, the last
   * one. (Opening the sign-in page starts a passkey sign-in that waits for a passkey: it does not hide
   * the sign-in before it.)
   */
  flowsOf(viewer: string | undefined): Partial<Record<FlowKind, RecordedFlow>> {
    const recent = (viewer && this.viewers.get(viewer)) || {};
    const last: Partial<Record<FlowKind, RecordedFlow>> = {};
    for (const kind of FLOW_KINDS) {
      const flows = recent[kind] ?? [];
      const shown = flows.findLast((flow) => flow.ended) ?? flows.at(-1);
      if (shown) last[kind] = shown;
    }
    return last;
  }

  /** The sign-ins `viewer` started after the one `flowsOf` shows, still waiting for their next request. */
  waitingOf(viewer: string | undefined): RecordedFlow[] {
    const flows = ((viewer && this.viewers.get(viewer)) || {}).signIn ?? [];
    const shown = this.flowsOf(viewer).signIn;
    return flows.slice(shown ? flows.indexOf(shown) + 1 : 0).filter((flow) => !flow.ended);
  }

  private actorStarted(rootId: string, actor: ActorView): void {
    const machine = actor.logic?.config?.id;
    if (actor._parent === undefined) {
      const kind = machine === undefined ? undefined : KIND_OF_MACHINE[machine];
      if (kind === undefined || machine === undefined) return;
      const run: LiveRun = {
        flow: { kind, machine, startedAt: new Date(), requests: 1, ended: false, truncated: false, machines: [{ machine, steps: [] }] },
        machineOf: new Map([[actor.sessionId, machine]]),
        invoked: new Map(),
        owner: undefined,
        placed: false,
        steps: 0,
        holding: undefined,
        held: [],
      };
      this.live.set(rootId, run);
      if (this.live.size > MAX_LIVE_RUNS) this.live.delete(this.live.keys().next().value as string);
      this.resolveOwner(run);
      return;
    }
    const run = this.live.get(rootId);
    if (!run) return;
    if (machine !== undefined) {
      run.machineOf.set(actor.sessionId, machine);
      run.holding = machine;
      if (!run.flow.machines.some((p) => p.machine === machine)) run.flow.machines.push({ machine, steps: [] });
    }
    if (typeof actor.src === "string") run.invoked.set(actor.id, actor.src);
  }

  private resolveOwner(run: LiveRun): void {
    let viewer: Viewer;
    try {
      viewer = this.options.viewerOf();
    } catch {
      return;
    }
    const own = (id: string | undefined): void => {
      if (id === undefined) return;
      run.owner = id;
      this.place(run);
    };
    if (typeof viewer === "string") own(viewer);
    else if (viewer) viewer.then(own, () => {});
  }

  /** Records the held moves of an invoked machine, now that its parent's move is recorded. */
  private release(run: LiveRun): void {
    const machine = run.holding!;
    run.holding = undefined;
    for (const move of run.held.splice(0)) this.step(run, machine, move);
  }

  private step(run: LiveRun, machine: string, move: Move): void {
    if (run.holding === machine) {
      run.held.push(move);
      return;
    }
    const path = run.flow.machines.find((p) => p.machine === machine);
    if (!path) return;
    if (run.steps >= this.maxSteps) {
      run.flow.truncated = true;
      return;
    }
    const last = path.steps.at(-1);
    // A machine whose initial state moves on at once reports the move first: enter the source then.
    if (move.from !== undefined && last?.to !== move.from) this.step(run, machine, { from: undefined, to: move.from, eventType: "start" });
    run.steps++;
    path.steps.push({ order: run.steps, ...move, event: this.eventName(run, move.eventType) });
    // A sign-in is filed once its first state is known: that state tells whether it resumes another.
    this.place(run);
  }

  private eventName(run: LiveRun, eventType: string): string {
    if (eventType === "") return "always";
    if (eventType === "start") return "start";
    for (const [prefix, word] of [
      ["xstate.done.actor.", "done"],
      ["xstate.error.actor.", "error"],
    ] as const) {
      if (eventType.startsWith(prefix)) {
        const invokeId = eventType.slice(prefix.length);
        return `${word}: ${run.invoked.get(invokeId) ?? invokeId}`;
      }
    }
    return eventType;
  }

  /**
   * Files a run under its browser once it is owned: a session read only when it ended having read a
   * cookie (a read without one, which every page view of a signed-out browser makes, would hide the
   * interesting one), the others at once; a sign-in that resumes the one resting there continues it.
   */
  private place(run: LiveRun): void {
    const { flow } = run;
    if (run.placed || run.owner === undefined || flow.machines[0]?.steps.length === 0) return;
    if (flow.kind === "sessionRead" && !(flow.ended && run.invoked.size > 0)) return;
    run.placed = true;
    const slots = this.viewers.get(run.owner) ?? {};
    this.viewers.delete(run.owner);
    this.viewers.set(run.owner, slots);
    if (this.viewers.size > this.maxViewers) this.viewers.delete(this.viewers.keys().next().value as string);

    const flows = (slots[flow.kind] ??= []);
    const firstState = flow.machines[0]?.steps[0]?.to;
    const continued = flows.findLast(
      (previous) => !previous.ended && previous.machine === flow.machine && previous.machines[0]?.steps.at(-1)?.to === firstState,
    );
    if (continued) {
      this.continueWith(continued, run);
      // Now the most recent flow of its kind.
      flows.splice(flows.indexOf(continued), 1);
      flows.push(continued);
    } else {
      flows.push(flow);
      // Past the limit the oldest goes, unless it is the one flowsOf shows.
      if (flows.length > FLOWS_KEPT) flows.splice(flows[0] === flows.findLast((f) => f.ended) ? 1 : 0, 1);
    }
  }

  /** Appends a resumed run (the second request of a flow) to the flow it continues; its later events follow. */
  private continueWith(previous: RecordedFlow, run: LiveRun): void {
    previous.requests++;
    const offset = previous.machines.reduce((n, p) => n + p.steps.length, 0);
    for (const path of run.flow.machines) {
      const into = previous.machines.find((p) => p.machine === path.machine) ?? { machine: path.machine, steps: [] };
      if (!previous.machines.includes(into)) previous.machines.push(into);
      // The resumed state is where the previous request rested: already drawn.
      const steps = path === run.flow.machines[0] ? path.steps.slice(1) : path.steps;
      into.steps.push(...steps.map((s) => ({ ...s, order: s.order + offset })));
    }
    previous.ended = run.flow.ended;
    previous.truncated ||= run.flow.truncated;
    run.flow = previous;
    run.steps = Math.max(0, ...previous.machines.flatMap((p) => p.steps.map((s) => s.order)));
  }
}

/** What the recorder reads of an (already redacted) inspection event's actor. */
interface ActorView {
  readonly id: string;
  readonly sessionId: string;
  readonly src?: unknown;
  readonly _parent?: unknown;
  readonly logic?: { config?: { id?: string } };
}

interface TransitionView {
  readonly eventType: string;
  readonly source: string;
  readonly target?: readonly string[];
}

/** The ids of the states a snapshot value names (`"a"` or `{ a: "b" }`), under the machine's id. */
function stateIds(machine: string, value: unknown, prefix = machine): string[] {
  if (typeof value === "string") return [`${prefix}.${value}`];
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, child]) => stateIds(machine, child, `${prefix}.${key}`));
}
