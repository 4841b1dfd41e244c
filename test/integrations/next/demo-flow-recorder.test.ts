/**
 * The Next demo's flow recorder (examples/next/lib/flow-recorder.ts) fed by real flows through
 * `Auth()`: what it keeps of each browser's last sign-in, session read and sign-out, that it keeps
 * only paths, and that it stays bounded. Its page in Chromium is tested in test/e2e/next.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FlowRecorder, type RecordedFlow } from "../../../examples/next/lib/flow-recorder.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, mailedLink, TestClient } from "../../src/email/fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

/** A recorder whose requests run as `viewer.current`, and a client of an email sign-in app that feeds it. */
function recorded(options: { maxViewers?: number; maxSteps?: number } = {}) {
  const viewer: { current: string | undefined } = { current: undefined };
  const recorder = new FlowRecorder({ viewerOf: () => viewer.current, ...options });
  const config = emailConfig({ smtp, config: { inspect: recorder.observe } });
  return { recorder, viewer, config };
}

const statesOf = (flow: RecordedFlow | undefined, machine: string): string[] =>
  flow?.machines.find((p) => p.machine === machine)?.steps.map((s) => s.to.slice(machine.length + 1)) ?? [];

describe("the Next demo's flow recorder", () => {
  it("keeps an email sign-in's two requests as one path, and the session read and sign-out after it", async () => {
    const { recorder, viewer, config } = recorded();
    const client = new TestClient(config);
    viewer.current = "browser-a";
    const { link } = await mailedLink(client, smtp, "ada@example.test");
    const resting = recorder.flowsOf("browser-a").signIn;
    expect(resting).toMatchObject({ machine: "email", requests: 1, ended: false });
    expect(statesOf(resting, "email").at(-1)).toBe("awaitingLink");

    await client.get(link.href);
    const signIn = recorder.flowsOf("browser-a").signIn!;
    expect(signIn).toMatchObject({ machine: "email", requests: 2, ended: true });
    const email = statesOf(signIn, "email");
    expect(email.slice(0, 2)).toEqual(["normalizing", "checkingSendLimit"]);
    expect(email.filter((s) => s === "awaitingLink")).toHaveLength(1);
    expect(email.slice(email.indexOf("awaitingLink"), email.indexOf("awaitingLink") + 2)).toEqual(["awaitingLink", "normalizingLink"]);
    expect(email.at(-1)).toBe("signedIn");
    const followed = signIn.machines[0]!.steps.find((s) => s.to === "email.normalizingLink");
    expect(followed).toMatchObject({ event: "link.followed", eventType: "link.followed", from: "email.awaitingLink" });
    expect(signIn.machines[0]!.steps[1]).toMatchObject({ event: "done: normalizeIdentifier" });
    expect(statesOf(signIn, "signInCompletion").at(-1)).toBe("signedIn");
    // The completion's steps come right after the parent entered `completing`, before its next step.
    const completion = signIn.machines[1]!.steps.map((s) => s.order);
    const completing = signIn.machines[0]!.steps.find((s) => s.to === "email.completing")!;
    const after = signIn.machines[0]!.steps.find((s) => s.order > completing.order)!;
    expect(completion[0]).toBe(completing.order + 1);
    expect(completion.at(-1)).toBe(after.order - 1);
    const orders = signIn.machines.flatMap((p) => p.steps.map((s) => s.order)).sort((a, b) => a - b);
    expect(orders).toEqual(orders.map((_, i) => i + 1));

    await client.session();
    // With an adapter, sessions live in the database: the read is the databaseSession flow.
    const read = recorder.flowsOf("browser-a").sessionRead;
    expect(read?.machine).toBe("databaseSession");
    expect(statesOf(read, "databaseSession").at(-1)).toBe("active");
    await client.signOut();
    expect(statesOf(recorder.flowsOf("browser-a").signOut, "signOut").at(-1)).toBe("signedOut");

    // Paths only: state ids, event names, times and counts.
    const kept = JSON.stringify(recorder.flowsOf("browser-a"));
    expect(kept).not.toContain("ada@example.test");
    expect(kept).not.toContain(link.searchParams.get("token")!);
    expect(kept).not.toContain("[redacted]");
  });

  it("keeps showing the last sign-in that ended while a newer one waits, and the newer one once it ends", async () => {
    const { recorder, viewer, config } = recorded();
    viewer.current = "browser-a";
    const client = new TestClient(config);
    const first = await mailedLink(client, smtp, "first@example.test");
    await client.get(first.link.href);
    const ended = recorder.flowsOf("browser-a").signIn;
    expect(ended).toMatchObject({ requests: 2, ended: true });

    const second = await mailedLink(client, smtp, "second@example.test");
    expect(recorder.flowsOf("browser-a").signIn).toBe(ended);
    const waiting = recorder.waitingOf("browser-a");
    expect(waiting).toHaveLength(1);
    expect(statesOf(waiting[0], "email").at(-1)).toBe("awaitingLink");

    await client.get(second.link.href);
    expect(recorder.flowsOf("browser-a").signIn).toBe(waiting[0]);
    expect(recorder.flowsOf("browser-a").signIn).toMatchObject({ requests: 2, ended: true });
    expect(recorder.waitingOf("browser-a")).toEqual([]);
  });

  it("shows a browser only its own flows, keeps none that nobody owns, and skips reads without a cookie", async () => {
    const { recorder, viewer, config } = recorded();
    viewer.current = "browser-a";
    await mailedLink(new TestClient(config), smtp, "grace@example.test");
    viewer.current = undefined;
    await mailedLink(new TestClient(config), smtp, "nobody@example.test");
    viewer.current = "browser-b";
    await new TestClient(config).session();

    expect(recorder.flowsOf("browser-a").signIn).toBeDefined();
    expect(recorder.flowsOf("browser-b")).toEqual({});
    expect(recorder.flowsOf(undefined)).toEqual({});
    expect(recorder.flowsOf("browser-c")).toEqual({});
  });

  it("finds the owner of a flow later when the viewer is only known asynchronously", async () => {
    const recorder = new FlowRecorder({ viewerOf: () => Promise.resolve("browser-a") });
    const client = new TestClient(emailConfig({ smtp, config: { inspect: recorder.observe } }));
    const { link } = await mailedLink(client, smtp, "late@example.test");
    await client.get(link.href);
    expect(recorder.flowsOf("browser-a").signIn).toMatchObject({ requests: 2, ended: true });
  });

  it("forgets the least recently active browsers beyond its limit, and cuts paths past the step cap", async () => {
    const { recorder, viewer, config } = recorded({ maxViewers: 2, maxSteps: 3 });
    for (const id of ["browser-a", "browser-b", "browser-c"]) {
      viewer.current = id;
      await mailedLink(new TestClient(config), smtp, `${id}@example.test`);
    }
    expect(recorder.flowsOf("browser-a")).toEqual({});
    const kept = recorder.flowsOf("browser-c").signIn!;
    expect(kept.truncated).toBe(true);
    expect(kept.machines.flatMap((p) => p.steps)).toHaveLength(3);
  });
});
