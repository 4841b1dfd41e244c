/**
 * Every machine's context is plain data as the flows really run (issue 17): each flow goes through the
 * real handler, and every snapshot of every machine (the children a flow invokes too) must survive
 * `structuredClone` and JSON with all its keys, and hold no function, class instance, Request or URL.
 * So a context can be persisted, sent to an inspector or rebuilt by a custom server from data alone.
 *
 * The snapshots are taken raw, under the runtime's redacting `inspect` (which would turn a Request
 * into data and hide the very thing checked here): the runtime of a configuration is the one `Auth`
 * uses for it, and its `inspect` is XState's.
 */
import type { InspectionEvent } from "xstate";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { allMachines } from "../../../machines/index.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getRuntime } from "../../../src/config/runtime.js";
import { Email } from "../../../src/providers/email.js";
import type { AuthConfig } from "../../../src/types.js";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { PUBLIC_CLIENT, startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { BACKCHANNEL_CLIENT, backchannelSetup, logoutToken, postLogoutToken, signedIn } from "../backchannel/fixtures.js";
import { oauthConfig, signInThroughOp } from "../oauth/fixtures.js";
import { expireJwtAccessToken, refreshingProvider } from "../refresh/fixtures.js";
import { PasskeyClient, passkeyConfig, softAuthenticator } from "../webauthn/fixtures.js";

interface Seen {
  machine: string;
  /** The machine at the root of the run: a child's context is what its parent handed it. */
  root: string;
  state: unknown;
  context: unknown;
}

const seen: Seen[] = [];

/** `config`, with every machine snapshot of its runs recorded raw (the observer it had still runs). */
function observed<C extends AuthConfig>(config: C): C {
  const rt = getRuntime(config);
  const redacting = rt.inspect;
  const machineOf = new Map<string, string>();
  rt.inspect = (event: InspectionEvent) => {
    const snapshot = (event as { snapshot?: { machine?: { id: string }; value?: unknown; context?: unknown } }).snapshot;
    if (snapshot?.machine && event.type === "@xstate.snapshot") {
      machineOf.set(event.actorRef.sessionId, snapshot.machine.id);
      seen.push({
        machine: snapshot.machine.id,
        root: machineOf.get(event.rootId) ?? snapshot.machine.id,
        state: snapshot.value,
        context: snapshot.context,
      });
    }
    redacting?.(event);
  };
  return config;
}

/** Where `value` holds something that is not plain data, by path. Dates are data (the adapter's types carry them). */
function notPlain(value: unknown, path = "context"): string[] {
  if (value === null || value === undefined) return [];
  switch (typeof value) {
    case "string":
    case "boolean":
      return [];
    case "number":
      return Number.isFinite(value) ? [] : [`${path}: ${value}`];
    case "object":
      break;
    default:
      return [`${path}: a ${typeof value}`];
  }
  if (value instanceof Date) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => notPlain(item, `${path}[${i}]`));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return [`${path}: a ${prototype?.constructor?.name ?? "class instance"}`];
  return Object.entries(value).flatMap(([key, item]) => notPlain(item, `${path}.${key}`));
}

/** The paths of every defined value in `value`, leaves included (JSON drops undefined members, nothing else may go). */
function pathsOf(value: unknown, path = ""): string[] {
  if (value === null || typeof value !== "object" || value instanceof Date) return [path];
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  return [path, ...entries.filter(([, item]) => item !== undefined).flatMap(([key, item]) => pathsOf(item, `${path}/${key}`))];
}

/** What is wrong with one recorded context, if anything. */
function problemsOf({ context }: Seen): string[] {
  const problems = notPlain(context);
  if (problems.length) return problems;
  try {
    expect(structuredClone(context)).toStrictEqual(context);
  } catch (error) {
    return [`structuredClone: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`];
  }
  const lost = pathsOf(context).filter((path) => !pathsOf(JSON.parse(JSON.stringify(context))).includes(path));
  return lost.length ? [`JSON loses ${lost.join(", ")}`] : [];
}

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT, PUBLIC_CLIENT] });
});
afterAll(() => op.close());

describe("every machine's context, after real runs", () => {
  // Each run's snapshots are judged when it ends, so a failure names the run that made it.
  let judged = 0;
  afterEach(() => {
    const fresh = seen.slice(judged);
    judged = seen.length;
    const problems = fresh.flatMap((s) => problemsOf(s).map((problem) => `${s.root} > ${s.machine} in ${JSON.stringify(s.state)}: ${problem}`));
    expect([...new Set(problems)]).toEqual([]);
  });

  it("credentials: a refused and an accepted sign-in, session reads and an update, sign-out (JWT)", async () => {
    const client = new TestClient(observed(testConfig()));
    expect((await client.signIn(ADA_USERNAME, "wrong password")).status).toBe(302);
    expect((await client.signIn(ADA_USERNAME, ADA_PASSWORD)).status).toBe(302);
    expect(await client.session()).toMatchObject({ user: { name: "Ada Lovelace" } });
    const csrfToken = await client.csrf();
    expect((await client.postJson("/session", { csrfToken, data: { theme: "dark" } })).status).toBe(200);
    await client.signOut();
    expect(await client.session()).toBeNull();
  });

  it("email: a link asked for and followed, a database session read, sign-out (database)", async () => {
    const links: string[] = [];
    const config = observed(
      testConfig({
        adapter: MemoryAdapter(),
        session: { strategy: "database" },
        providers: [Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
      }),
    );
    const client = new TestClient(config);
    const csrfToken = await client.csrf();
    expect((await client.post("/signin/email", { csrfToken, email: "grace@example.com" })).status).toBe(302);
    expect(links).toHaveLength(1);
    expect((await client.get(links[0]!)).status).toBe(302);
    expect(await client.session()).toMatchObject({ user: { email: "grace@example.com" } });
    await client.signOut();
    expect(await client.session()).toBeNull();
  });

  it("passkey: options asked for, a registration that signs in", async () => {
    const client = new PasskeyClient(observed(passkeyConfig()));
    expect((await client.register(await softAuthenticator(), "hedy@example.com")).status).toBe(302);
    expect(await client.signedInAs()).toBe("hedy@example.com");
  });

  it("OpenID Connect: a sign-in, then a read past the access token's expiry that refreshes it (JWT)", async () => {
    const config = observed(oauthConfig([refreshingProvider(op)]));
    const client = new TestClient(config);
    expect((await signInThroughOp(op, client)).status).toBe(302);
    await expireJwtAccessToken(client);
    const before = op.grants.refresh_token ?? 0;
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(op.grants.refresh_token).toBe(before + 1);
  });

  it("back-channel logout: the OP ends a database session", async () => {
    const setup = backchannelSetup(op);
    observed(setup.config);
    const laptop = await signedIn(op, setup);
    expect((await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }))).status).toBe(200);
    expect(await laptop.client.session()).toBeNull();
  });

  // The runs above, together, reach every machine the library has: none is left unchecked.
  it("was seen for every machine", () => {
    const machines = Object.values(allMachines).map((machine) => machine.id);
    expect(machines.filter((id) => !seen.some((s) => s.machine === id))).toEqual([]);
  });
});
