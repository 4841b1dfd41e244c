import { describe, expect, it, vi } from "vitest";
import { readSession } from "../../../src/server/index.js";
import type { AuthConfig } from "../../../src/types.js";
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
