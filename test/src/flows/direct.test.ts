/**
 * Which runner runs the flows (src/flows/direct.ts): the hot ones (session reads, the credentials
 * sign-in and its completion) take the machine's transitions directly when nothing watches them, and
 * run on an xstate actor when `inspect` is set, so the inspector sees real XState events. The debug
 * log names the runner. That both runners end every path alike is checked on every model path
 * (test/machines/effect-paths.ts, "end the same on the direct runner").
 */
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { Auth } from "../../../src/index.js";
import { ADA_PASSWORD, ADA_USERNAME, ORIGIN, SESSION_COOKIE, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

/** The "flow" debug lines, e.g. `session ended in "active" (direct)`. */
function flowLines(config: TestConfig): string[] {
  return config.logger.entries.filter((e) => e.level === "debug" && e.code === "flow").map((e) => String(e.message[0]));
}

describe("the runner a flow runs on", () => {
  it("is the direct one for a credentials sign-in, its completion and a JWT session read", async () => {
    const config = testConfig();
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(await client.session()).toMatchObject({ user: { name: "Ada Lovelace" } });
    expect(flowLines(config)).toEqual(['credentialsSignIn ended in "signedIn" (direct)', 'session ended in "active" (direct)']);
  });

  it("is the direct one for a database session read", async () => {
    const adapter = MemoryAdapter();
    const user = await adapter.createUser!({ id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" });
    await adapter.createSession!({ sessionToken: "tok-1", userId: user.id, expires: new Date(Date.now() + 3_600_000) });
    const config = testConfig({ adapter, session: { strategy: "database" } });
    const response = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=tok-1` } }), config);
    expect(await response.json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } });
    expect(flowLines(config)).toEqual(['databaseSession ended in "active" (direct)']);
  });

  it("is an xstate actor while an inspector watches, which then sees the machines' own events", async () => {
    const seen: string[] = [];
    const config = testConfig({ inspect: (event) => void seen.push(event.type) });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    await client.session();
    expect(flowLines(config)).toEqual(['credentialsSignIn ended in "signedIn" (actor)', 'session ended in "active" (actor)']);
    expect(seen).toEqual(expect.arrayContaining(["@xstate.actor", "@xstate.event", "@xstate.snapshot", "@xstate.microstep"]));
  });

  it("answers a broken flow the same either way: a jwt callback that throws leaves no session", async () => {
    for (const inspect of [undefined, () => {}]) {
      const config = testConfig({
        ...(inspect ? { inspect } : {}),
        callbacks: {
          jwt: ({ token, trigger }) => {
            if (!trigger) throw new Error("callback bug");
            return token;
          },
        },
      });
      const client = new TestClient(config);
      await client.signIn(ADA_USERNAME, ADA_PASSWORD);
      expect(await client.session()).toBeNull();
      expect(flowLines(config).at(-1)).toBe(`session ended in "invalid" (${inspect ? "actor" : "direct"})`);
    }
  });
});
