/**
 * The Stately inspector, hooked up as its documentation says (`inspect: inspector.inspect`), watching
 * real sign-ins through `Auth`: its WebSocket inspector sends to its own inspector server (the `ws`
 * bridge the inspector UI connects to), and its WebSocket receiver reads what arrives there. The
 * receiver sees the flows' actors, events and snapshots; no message carries a secret.
 */
import { createServer } from "node:net";
import { createWebSocketInspector, createWebSocketReceiver, type StatelyInspectionEvent } from "@statelyai/inspect";
import { createInspectorServer } from "@statelyai/inspect/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADA_PASSWORD, CSRF_COOKIE, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { TestClient } from "../../helpers/test-client.js";
import { deliver, locationOf, oidcProvider, startSignIn } from "../oauth/fixtures.js";

type Message = StatelyInspectionEvent & { snapshot?: { status?: string; value?: unknown } };

/** A port nothing listens on now (the inspector server takes a fixed port, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** What the receiver got, and a way to wait for a message that has not arrived yet. */
function record(): { messages: Message[]; until(test: (m: Message) => boolean): Promise<Message> } {
  const messages: Message[] = [];
  const waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  return {
    messages,
    push(message: Message) {
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.test(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    },
    until(test) {
      const seen = messages.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
  } as ReturnType<typeof record> & { push(m: Message): void };
}

/** The machine an `@xstate.actor` message registers (its definition's id). */
function machineOf(m: Message): string | undefined {
  return m.type === "@xstate.actor" && m.definition ? (JSON.parse(m.definition) as { id?: string }).id : undefined;
}

/** The final snapshot of a run of the machine `name` registered after the first `after` messages. */
function finished(received: ReturnType<typeof record>, name: string, after = 0): Promise<Message> {
  const sessions = () => new Set(received.messages.slice(after).filter((m) => machineOf(m) === name).map((m) => m.sessionId));
  return received.until((m) => m.type === "@xstate.snapshot" && m.snapshot?.status === "done" && sessions().has(m.sessionId));
}

describe("watching sign-ins with the Stately inspector", () => {
  let op: TestProvider;
  let server: { stop(): void };
  let inspector: ReturnType<typeof createWebSocketInspector>;
  const received = record() as ReturnType<typeof record> & { push(m: Message): void };

  beforeAll(async () => {
    op = await startTestProvider();
    const port = await freePort();
    server = createInspectorServer({ port, autoOpen: false });
    inspector = createWebSocketInspector({ url: `ws://127.0.0.1:${port}` });
    createWebSocketReceiver({ server: `ws://127.0.0.1:${port}` }).subscribe((m) => received.push(m as Message));
    // Both ends are connected once a message sent through the inspector came out of the receiver.
    inspector.actor("connection-probe");
    await received.until((m) => m.sessionId === "connection-probe");
  });

  afterAll(async () => {
    inspector.stop();
    server.stop();
    await op.close();
  });

  it("shows a credentials sign-in's actors, events and snapshots, and none of its secrets", async () => {
    const logger = testConfig().logger;
    const client = new TestClient(testConfig({ inspect: inspector.inspect, logger }));
    const response = await client.signIn("ada", ADA_PASSWORD);
    expect(response.status).toBe(302);
    const sessionToken = client.cookie(SESSION_COOKIE)!;
    const csrfToken = client.cookie(CSRF_COOKIE)!.split("|")[0]!;
    expect(sessionToken).toBeTruthy();

    await finished(received, "credentialsSignIn");
    const actors = received.messages.filter((m) => m.type === "@xstate.actor");
    const root = actors.find((m) => machineOf(m) === "credentialsSignIn")!;
    const completion = actors.find((m) => machineOf(m) === "signInCompletion")!;
    expect(root.type === "@xstate.actor" && root.name).toBe("credentialsSignIn");
    expect(completion.type === "@xstate.actor" && completion.parentId).toBe(root.sessionId);

    const ofRoot = received.messages.filter((m) => m.sessionId === root.sessionId);
    expect(ofRoot.some((m) => m.type === "@xstate.event")).toBe(true);
    const states = ofRoot.filter((m) => m.type === "@xstate.snapshot").map((m) => m.snapshot?.value);
    expect(states).toEqual(expect.arrayContaining(["authorizing", "completing", "signedIn"]));
    const completionStates = received.messages
      .filter((m) => m.type === "@xstate.snapshot" && m.sessionId === completion.sessionId)
      .map((m) => m.snapshot?.value);
    expect(completionStates).toEqual(expect.arrayContaining(["checkingSignIn", "issuingSession"]));

    const wire = JSON.stringify(received.messages);
    for (const secret of [ADA_PASSWORD, sessionToken, sessionToken.slice(-40), csrfToken]) expect(wire).not.toContain(secret);
    expect(logger.codes("warn")).not.toContain("InspectError");
  });

  it("shows an OpenID Connect sign-in across its two requests without the code, state or verifier", async () => {
    const client = new TestClient(testConfig({ providers: [oidcProvider(op)], inspect: inspector.inspect }));
    const outcome = await op.authorize(locationOf(await startSignIn(client)), { accountId: "ada" });
    const callback = new URL(outcome.url);
    const code = callback.searchParams.get("code")!;
    const state = callback.searchParams.get("state")!;
    const verifier = client.cookie("appauth.pkce.code_verifier")!;
    expect(code && state && verifier).toBeTruthy();
    const before = received.messages.length;
    await deliver(client, outcome);
    expect(client.cookie(SESSION_COOKIE)).toBeTruthy();

    const done = await finished(received, "oauth", before);
expect(done.snapshot?.value).toBe("signedIn");
    const wire = JSON.stringify(received.messages);
    for (const secret of [code, state, verifier, client.cookie(SESSION_COOKIE)!]) expect(wire).not.toContain(secret);
  });

  it("keeps the process up when the observer throws, at once or later from a timer", async () => {
    const logger = testConfig().logger;
    const failures: unknown[] = [];
    let delayedThrows!: () => void;
    const delayedThrew = new Promise<void>((resolve) => (delayedThrows = resolve));
    const throwing = {
      calls: 0,
      next() {
        this.calls += 1;
        if (this.calls === 1) throw new Error("observer broke at once");
        if (this.calls === 2) {
          setTimeout(() => {
            delayedThrows();
            throw new Error("observer broke later");
          }, 0);
        }
      },
    };
    const recorded = { ...logger, warn: (code: string, ...message: unknown[]) => (failures.push(message[0]), logger.warn(code, ...message)) };
    const client = new TestClient(testConfig({ inspect: throwing, logger: recorded }));
    const response = await client.signIn("ada", ADA_PASSWORD);
    expect(client.cookie(SESSION_COOKIE)).toBeTruthy();
    expect(response.status).toBe(302);
    await delayedThrew;
    // The timer's error reaches the logger after the timer callback: wait for it there.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(failures.map((e) => (e as Error).message)).toEqual(["observer broke at once", "observer broke later"]);
  });
});
