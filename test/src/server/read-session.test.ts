import { describe, expect, it, vi } from "vitest";
import { readSession } from "../../../src/server/index.js";
import type { AuthConfig, Session } from "../../../src/types.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, BASE_URL, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

describe("reading a session from server code", () => {
  it("resolves a lazy config once per read, with the incoming request", async () => {
    const config = testConfig();
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const lazyConfig = vi.fn((_request?: Request): AuthConfig => config);
    const incoming = new Request(`${new URL(BASE_URL).origin}/dashboard`, { headers: { cookie: client.cookieHeader()! } });

    const { session } = await readSession(incoming, lazyConfig);

    expect(session?.user?.email).toBe(ADA.email);
    expect(lazyConfig).toHaveBeenCalledOnce();
    expect(lazyConfig).toHaveBeenCalledWith(incoming);
  });

  it("still reads null, and calls the lazy config once, without a session cookie", async () => {
    const config = testConfig();
    const lazyConfig = vi.fn((_request?: Request): AuthConfig => config);
    const { session, cookies } = await readSession(new Request(`${new URL(BASE_URL).origin}/`), lazyConfig);
    expect(session).toBeNull();
    expect(cookies).toEqual([]);
    expect(lazyConfig).toHaveBeenCalledOnce();
  });
});

describe("the session a server-side read returns is what GET /session would carry as JSON", () => {
  async function readWith(session: (params: { session: Session }) => unknown): Promise<unknown> {
    const config = testConfig({ callbacks: { session: session as never } });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const incoming = new Request(`${new URL(BASE_URL).origin}/`, { headers: { cookie: client.cookieHeader()! } });
    const fromRoute = await (await client.get("/session")).json();
    const { session: read } = await readSession(incoming, config);
    expect(read).toEqual(fromRoute);
    return read;
  }

  it("turns dates into their ISO strings and drops undefined fields, as JSON does", async () => {
    const when = new Date("2026-01-02T03:04:05.000Z");
    const read = (await readWith(({ session }) => ({ ...session, since: when, note: undefined, tags: ["a", 1, true, null] }))) as Record<string, unknown>;
    expect(read.since).toBe(when.toISOString());
    expect("note" in read).toBe(false);
    expect(read.tags).toEqual(["a", 1, true, null]);
  });

  it("keeps the session callback's own object when it is JSON data already", async () => {
    let made: unknown;
    const read = await readWith(({ session }) => (made = { ...session, roles: ["admin"], level: 3 }));
    expect(read).toBe(made);
  });

  it("reads null for a session that JSON cannot carry (a cycle), as the route would fail", async () => {
    const config = testConfig({
      callbacks: {
        session: ({ session }) => {
          const cyclic = { ...session } as Session & { self?: unknown };
          cyclic.self = cyclic;
          return cyclic;
        },
      },
    });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    const incoming = new Request(`${new URL(BASE_URL).origin}/`, { headers: { cookie: client.cookieHeader()! } });
    expect((await readSession(incoming, config)).session).toBeNull();
  });
});
