/**
 * One link, followed twice at the same moment (a mail scanner and the person, or an attacker racing
 * them): exactly one of the two gets a session, with the memory adapter and with SQLite, where the
 * token is consumed by a single statement.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sqliteAdapter } from "../../../src/adapters/sql/sqlite.js";
import type { Adapter } from "../../../src/types.js";
import { ORIGIN } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, location, mailedLink, sessionEmail, TestClient } from "./fixtures.js";

let smtp: TestSmtpServer;
let dir: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dir = await mkdtemp(join(tmpdir(), "appauth-email-race-"));
});

afterAll(async () => {
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

interface Store {
  adapter: Adapter;
  close(): Promise<void>;
}

const stores: [string, () => Promise<Store>][] = [
  ["the memory adapter", async () => ({ adapter: MemoryAdapter(), close: async () => {} })],
  [
    "the SQLite adapter",
    async () => {
      const adapter = sqliteAdapter(join(dir, `race-${crypto.randomUUID()}.sqlite`));
      await adapter.migrate();
      return { adapter, close: () => adapter.destroy() };
    },
  ],
];

describe.each(stores)("two concurrent uses of one link, with %s", (_name, open) => {
  let store: Store;

  beforeAll(async () => {
    store = await open();
  });

  afterAll(async () => {
    await store.close();
  });

  it.each([
    ["a new user", "race-new@example.test", false],
    ["an existing user", "race-known@example.test", true],
  ])("sign in exactly one browser, for %s", async (_who, address, exists) => {
    if (exists) await store.adapter.createUser!({ id: `user-${address}`, email: address, emailVerified: null });
    const config = emailConfig({ smtp, adapter: store.adapter });
    const { link } = await mailedLink(new TestClient(config), smtp, address, { callbackUrl: "/in" });

    const browsers = [new TestClient(config), new TestClient(config)];
    const responses = await Promise.all(browsers.map((browser) => browser.get(link.href)));

    const landed = responses.map((response) => location(response));
    const signedIn = landed.filter((target) => target.href === `${ORIGIN}/in`);
    const refused = landed.filter((target) => target.searchParams.get("error") === "Verification");
    expect(signedIn).toHaveLength(1);
    expect(refused).toHaveLength(1);

    const sessions = await Promise.all(browsers.map((browser) => sessionEmail(browser)));
    expect(sessions.filter((email) => email === address)).toHaveLength(1);
    expect(sessions.filter((email) => email === null)).toHaveLength(1);
    expect(await store.adapter.getUserByEmail!(address)).toMatchObject({ email: address, emailVerified: expect.any(Date) });
  });

  it("sign in exactly one browser out of eight racing for the same link", async () => {
    const config = emailConfig({ smtp, adapter: store.adapter });
    const { link } = await mailedLink(new TestClient(config), smtp, "race-eight@example.test");
    const browsers = Array.from({ length: 8 }, () => new TestClient(config));
    await Promise.all(browsers.map((browser) => browser.get(link.href)));
    const sessions = await Promise.all(browsers.map((browser) => sessionEmail(browser)));
    expect(sessions.filter((email) => email !== null)).toEqual(["race-eight@example.test"]);
  });
});
