import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { sqliteAdapter } from "../../../src/adapters/sql/sqlite.js";
import type { Adapter } from "../../../src/types.js";

// Unauthenticated requests mint WebAuthn challenges (one identifier per provider): a store nobody
// purges must not grow with them. Creating a token removes the expired ones of its identifier.
const dir = await mkdtemp(join(tmpdir(), "appauth-purge-"));
const sqlite = sqliteAdapter(join(dir, "purge.sqlite"));
await sqlite.migrate();
afterAll(async () => {
  await sqlite.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe.each<[string, Adapter]>([
  ["memory", MemoryAdapter()],
  ["SQLite", sqlite],
])("the %s adapter's verification tokens", (_, adapter) => {
  it("drop the expired tokens of an identifier when a new one is created, and keep the live ones", async () => {
    const identifier = `appauth:webauthn-challenge:${crypto.randomUUID()}`;
    const expired = { identifier, token: "expired-1", expires: new Date(Date.now() - 60_000) };
    const live = { identifier, token: "live-1", expires: new Date(Date.now() + 60_000) };
    const other = { identifier: `${identifier}-other`, token: "expired-2", expires: new Date(Date.now() - 60_000) };
    await adapter.createVerificationToken!(expired);
    await adapter.createVerificationToken!(other);
    await adapter.createVerificationToken!(live);
    await adapter.createVerificationToken!({ identifier, token: "live-2", expires: new Date(Date.now() + 60_000) });
    expect(await adapter.useVerificationToken!({ identifier, token: "expired-1" })).toBeNull();
    expect(await adapter.useVerificationToken!({ identifier, token: "live-1" })).toMatchObject({ token: "live-1" });
    // Another identifier's expired token is not this creation's business.
    expect(await adapter.useVerificationToken!({ identifier: other.identifier, token: "expired-2" })).toMatchObject({ token: "expired-2" });
  });
});
