// The flows this browser ran, drawn on their machines' diagrams: the last sign-in, session read and
// sign-out, as the `inspect` observer (lib/flows.ts) recorded them from the redacted inspection stream.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import Link from "next/link";
import { FLOW_KINDS, type FlowKind, type MachinePath, type RecordedFlow } from "../../lib/flow-recorder";
import { myFlows } from "../../lib/flows";

export const dynamic = "force-dynamic";

const TITLES: Record<FlowKind, string> = {
  signIn: "Last sign-in",
  sessionRead: "Last session read",
  signOut: "Last sign-out",
};

const HOW_TO: Record<FlowKind, string> = {
  signIn: "Sign in with any method.",
  sessionRead: "Open a page or /api/auth/session while signed in (reads without a session cookie are not kept).",
  signOut: "Sign out.",
};

/** The diagrams `npm run visualize` generates (the repository's visualizations/), read as files. */
const DIAGRAMS = join(process.cwd(), "..", "..", "visualizations");

export default async function FlowsPage() {
  const { last, waiting } = await myFlows();
  return (
    <div className="flows">
      <h1>Flows</h1>
      <p className="muted">
        Every flow of appauth is a state machine. This page draws the path of this browser&apos;s last sign-in, session read
        and sign-out on the machines&apos; diagrams: the states entered are highlighted, the transitions taken drawn bold, and the
        list beside each diagram gives the states and the events that moved the flow, in order. Steps are numbered across the
        machines of a flow, so the numbers show where the shared sign-in completion ran inside its parent. The app&apos;s{" "}
        <code>inspect</code> option feeds it with the redacted inspection stream.
      </p>
      <p className="muted" id="flows-privacy">
        A demo page: each browser sees only the flows its own requests ran (a random cookie tells them apart), and only their
        states and events, never a value they handled. It lives in this server process&apos;s memory.
      </p>
      {FLOW_KINDS.map((kind) => (
        <FlowSection key={kind} kind={kind} flow={last[kind]} waiting={kind === "signIn" ? waiting : []} />
      ))}
    </div>
  );
}

function FlowSection({ kind, flow, waiting }: { kind: FlowKind; flow: RecordedFlow | undefined; waiting: RecordedFlow[] }) {
  return (
    <section className="card" data-flow={kind} aria-labelledby={`flow-${kind}`}>
      <h2 id={`flow-${kind}`}>{TITLES[kind]}</h2>
      {flow === undefined ? (
        <p className="muted">
          None recorded for this browser yet. {HOW_TO[kind]} <Link href="/flows">Refresh</Link>
        </p>
      ) : (
        <>
          <p className="muted" data-summary>
            <code>{flow.machine}</code>, started{" "}
            <time dateTime={flow.startedAt.toISOString()}>{flow.startedAt.toISOString().slice(11, 19)} UTC</time>
            {flow.requests > 1 ? `, over ${flow.requests} requests` : ""}:{" "}
            {flow.ended ? `ended in ${lastState(flow)}` : `resting in ${lastState(flow)}, waiting for its next request`}
            {flow.truncated ? " (the path was too long: its end is left out)" : ""}.
          </p>
          {flow.machines.map((path) => (
            <MachineFigure key={path.machine} path={path} />
          ))}
        </>
      )}
      {flow?.ended && waiting.length > 0 ? (
        <p className="muted" data-waiting>
          Started since and waiting for their next request:{" "}
          {waiting.map((w) => `${w.machine} (in ${lastState(w)})`).join(", ")}. The sign-in page starts a passkey sign-in
          for autofill each time it opens.
        </p>
      ) : null}
    </section>
  );
}

async function MachineFigure({ path }: { path: MachinePath }) {
  const svg = await diagram(path.machine);
  return (
    <figure className="flow-machine" data-machine={path.machine}>
      <figcaption>
        <code>{path.machine}</code>
      </figcaption>
      <div className="flow-layout">
        {svg === undefined ? (
          <p className="muted">No diagram of {path.machine} in visualizations/ (run npm run visualize).</p>
        ) : (
          // Drawn at its own size and scrolled sideways where it is wider than the screen: a region
          // with a name and a tab stop, so a keyboard can scroll it too.
          <div
            className="flow-diagram"
            role="region"
            aria-label={`Diagram of ${path.machine}`}
            tabIndex={0}
            dangerouslySetInnerHTML={{ __html: markPath(svg, path) }}
          />
        )}
        <ol className="flow-steps">
          {path.steps.map((step) => (
            <li key={step.order} value={step.order} data-state={step.to} data-event={step.event}>
              <code>{step.event}</code> → <strong>{stateName(path.machine, step.to)}</strong>
            </li>
          ))}
        </ol>
      </div>
    </figure>
  );
}

const svgCache = new Map<string, string | undefined>();

async function diagram(machine: string): Promise<string | undefined> {
  // Machine ids come from the library's own machines; anything else never names a file.
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(machine)) return undefined;
  if (!svgCache.has(machine)) {
    svgCache.set(machine, await readFile(join(DIAGRAMS, `${machine}.svg`), "utf8").catch(() => undefined));
  }
  return svgCache.get(machine);
}

/**
 * The diagram with the run marked: the groups the generator names (`data-state`, and `data-source`,
 * `data-target`, `data-event-type` for arrows and their labels) get a class, and each state entered
 * the step numbers that entered it.
 */
function markPath(svg: string, path: MachinePath): string {
  const entered = new Map<string, number[]>();
  const taken = new Set<string>();
  for (const step of path.steps) {
    entered.set(step.to, [...(entered.get(step.to) ?? []), step.order]);
    if (step.from !== undefined) taken.add(edgeKey(step.from, step.to, step.eventType));
  }
  const first = path.steps[0];
  return svg
    .replace(/<g data-state="([^"]*)">/g, (tag, id: string) => {
      const orders = entered.get(unescapeXml(id));
      return orders ? `<g data-state="${id}" class="visited" data-steps="${orders.join(" ")}">` : tag;
    })
    .replace(/<g data-source="([^"]*)" data-target="([^"]*)" data-event-type="([^"]*)">/g, (tag, source: string, target: string, type: string) =>
      taken.has(edgeKey(unescapeXml(source), unescapeXml(target), unescapeXml(type))) ? tag.replace(/>$/, ` class="taken">`) : tag,
    )
    .replace(/<g data-initial="([^"]*)">/g, (tag, id: string) =>
      first?.from === undefined && first?.to === unescapeXml(id) ? tag.replace(/>$/, ` class="taken">`) : tag,
    );
}

const edgeKey = (source: string, target: string, eventType: string): string => JSON.stringify([source, target, eventType]);

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function stateName(machine: string, id: string): string {
  return id.startsWith(`${machine}.`) ? id.slice(machine.length + 1) : id;
}

function lastState(flow: RecordedFlow): string {
  const root = flow.machines[0];
  const last = root?.steps.at(-1);
  return root && last ? stateName(root.machine, last.to) : "its first state";
}
