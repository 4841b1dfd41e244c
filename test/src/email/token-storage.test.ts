/**
 * What the store holds for a mailed link: a keyed hash of the token (never the token itself), the
 * address it was sent to, and when it expires (`maxAge`, 24 hours by default). Someone who reads
 * the store cannot sign in with what they read.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sqliteAdapter } from "../../../src/adapters/sql/sqlite.js";
import { SECRET } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  DAY_SECONDS,
  emailConfig,
  expectErrorRedirect,
  mailedLink,
  recordTokens,
  sessionEmail,
  TestClient,
  withParam,
} from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

const FIXED_TOKEN = "fixed-token-for-this-test-0123456789abcdef";

describe("the stored verification token", () => {
  it("is a keyed hash of the link's token, never the token itself, stored under the address", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "hash@example.test");
    const token = link.searchParams.get("token")!;

    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(adapter.createdTokens).toHaveLength(1);
    const [stored] = adapter.createdTokens;
    expect(stored!.identifier).toBe("hash@example.test");
    expect(stored!.token).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.token).not.toBe(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    // Not a plain digest either, which anyone could compute from a guessed token.
    expect(stored!.token).not.toBe(createHash("sha256").update(token).digest("hex"));

    // What the store holds does not open the link.
    expectErrorRedirect(await client.get(withParam(link, "token", stored!.token)), "Verification");
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("hash@example.test");
  });

  it("depends on the secret: the same token hashes differently under another secret", async () => {
    const stored: string[] = [];
    for (const secret of [SECRET, SECRET, `${SECRET}-other`]) {
      const adapter = recordTokens(MemoryAdapter());
      const client = new TestClient(
        emailConfig({ smtp, adapter, provider: { generateVerificationToken: () => FIXED_TOKEN }, config: { secret } }),
      );
      await mailedLink(client, smtp, "keyed@example.test");
      stored.push(adapter.createdTokens[0]!.token);
    }
    expect(stored[0]).toBe(stored[1]);
    expect(stored[2]).not.toBe(stored[0]);
    expect(stored).not.toContain(FIXED_TOKEN);
  });

  it("keeps links sent before a secret rotation working, with the old secret listed after the new one", async () => {
    const adapter = MemoryAdapter();
    const before = new TestClient(emailConfig({ smtp, adapter, config: { secret: SECRET } }));
    const { link } = await mailedLink(before, smtp, "rotate@example.test");

    const after = new TestClient(emailConfig({ smtp, adapter, config: { secret: [`${SECRET}-new`, SECRET] } }));
    await after.get(link.href);
    expect(await sessionEmail(after)).toBe("rotate@example.test");
  });

  it("expires 24 hours after it was sent when the provider sets no maxAge", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const sent = Date.now();
    await mailedLink(client, smtp, "default-age@example.test");
    const expires = adapter.createdTokens[0]!.expires.getTime();
    expect(expires).toBeGreaterThanOrEqual(sent + DAY_SECONDS * 1000);
    expect(expires).toBeLessThan(Date.now() + DAY_SECONDS * 1000 + 1000);
  });

  it("expires maxAge seconds after it was sent", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter, provider: { maxAge: 10 * 60 } }));
    const sent = Date.now();
    await mailedLink(client, smtp, "short-age@example.test");
    const expires = adapter.createdTokens[0]!.expires.getTime();
    expect(expires).toBeGreaterThanOrEqual(sent + 10 * 60 * 1000);
    expect(expires).toBeLessThan(Date.now() + 10 * 60 * 1000 + 1000);
  });

  it("works only with its own address: swapping the tokens of two links opens neither, and both still work", async () => {
    const config = emailConfig({ smtp });
    const ada = await mailedLink(new TestClient(config), smtp, "ada@example.test");
    const eve = await mailedLink(new TestClient(config), smtp, "eve@example.test");

    const thief = new TestClient(config);
    expectErrorRedirect(await thief.get(withParam(eve.link, "token", ada.link.searchParams.get("token")!)), "Verification");
    expectErrorRedirect(await thief.get(withParam(ada.link, "token", eve.link.searchParams.get("token")!)), "Verification");
    expect(await sessionEmail(thief)).toBeNull();

    for (const { link } of [ada, eve]) {
      const owner = new TestClient(config);
      await owner.get(link.href);
      expect(await sessionEmail(owner)).toBe(link.searchParams.get("email"));
    }
  });

  it("is removed from the store when the link is used", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "removed@example.test");
    await client.get(link.href);
    const [stored] = adapter.createdTokens;
    await expect(adapter.useVerificationToken({ identifier: stored!.identifier, token: stored!.token })).resolves.toBeNull();
  });
});

describe("the stored verification token in an SQLite file", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "appauth-email-token-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Every byte SQLite wrote for the database: the file and its write-ahead log. */
  async function databaseBytes(): Promise<string> {
    const files = await readdir(dir);
    const contents = await Promise.all(files.map((name) => readFile(join(dir, name))));
    return Buffer.concat(contents).toString("latin1");
  }

  it("never holds the token of the link, only its hash", async () => {
    const adapter = sqliteAdapter(join(dir, "auth.sqlite"));
    try {
      await adapter.migrate();
      const client = new TestClient(emailConfig({ smtp, adapter }));
      const { link } = await mailedLink(client, smtp, "sqlite@example.test");
      const token = link.searchParams.get("token")!;

      const rows = await adapter.db.selectFrom("verification_tokens").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ identifier: "sqlite@example.test" });
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(await databaseBytes()).not.toContain(token);

      await client.get(link.href);
      expect(await sessionEmail(client)).toBe("sqlite@example.test");
      await expect(adapter.db.selectFrom("verification_tokens").selectAll().execute()).resolves.toEqual([]);
    } finally {
      await adapter.destroy();
    }
  });
});
