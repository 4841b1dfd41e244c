/**
 * A JWT session's user that the adapter has no row for (a credentials user the application keeps
 * elsewhere) asks to enroll a second factor. The factors belong to a stored user (a foreign key on
 * SQL stores), so the answer is a typed refusal, never a 500 from the store, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "../../../src/jwt/index.js";
import { SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { twoFactorStores, type TwoFactorStore } from "./stores.js";

describe.each(twoFactorStores)("/two-factor for a user the $name adapter does not store", (store) => {
  let adapter: TwoFactorStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ adapter, close } = await store.open());
  });
  afterAll(async () => close());

  async function stranger(): Promise<TestClient> {
    const config = testConfig({ adapter, session: { strategy: "jwt" }, twoFactor: { issuer: "Acme" } });
    const token = await encode({ token: { sub: "kept-elsewhere-1", email: "elsewhere@example.com", name: "Elsewhere" }, secret: SECRET, salt: SESSION_COOKIE });
    const client = new TestClient(config);
    client.setCookie(SESSION_COOKIE, token);
    return client;
  }

  it("refuses to start an enrollment with a typed 4xx, and stores no factor", async () => {
    const client = await stranger();
    const answer = await client.post("/two-factor", { csrfToken: await client.csrf(), op: "start-totp" }, { headers: { accept: "application/json" } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(((await answer.json()) as { error?: string }).error).toMatch(/\S/);
    expect(await adapter.getTwoFactors("kept-elsewhere-1")).toEqual([]);
  });

  it("shows the page without a 500 (its list is empty)", async () => {
    const client = await stranger();
    const page = await client.get("/two-factor");
    expect(page.status).toBeLessThan(500);
  });
});
