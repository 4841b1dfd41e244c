/**
 * The two demos share one SQLite file (`demo/.data/appauth.sqlite`): `npm start` (Next.js) and
 * `npm run demo:node`. The Next demo stores demo@example.com under whatever id an email link, a
 * passkey or the OP gave it; the node demo must start on that file and sign the password in as
 * that stored user, not crash creating a second user with the same address.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_USER, demoAuthConfig, seedDemoUser, startDemo } from "../../demo/app.js";
import { sqliteAdapter } from "../../src/adapters/sql/sqlite.js";
import { SECRET, recordingLogger } from "../helpers/config.js";
import { TestClient } from "../helpers/test-client.js";

describe("the node demo on the Next demo's SQLite file", () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "appauth-demo-store-"));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The file as the Next demo leaves it after an email-link sign-in with the demo address. */
  async function storeWithEmailLinkUser() {
    const store = sqliteAdapter(join(dataDir, "appauth.sqlite"));
    await store.migrate();
    const linked = await store.createUser!({ id: "from-email-link", email: DEMO_USER.profile.email, name: null, image: null, emailVerified: new Date() });
    return { store, linked };
  }

  it("starts, where it used to fail with UNIQUE constraint failed: users.email", async () => {
    await storeWithEmailLinkUser();
    const logger = recordingLogger();
    const demo = await startDemo({ port: 0, secret: SECRET, dataDir, logger });
    try {
      const home = await fetch(demo.url);
      expect(home.status).toBe(200);
    } finally {
      await demo.close();
    }
    expect(logger.codes("error")).toEqual([]);
  });

  it("signs the demo password in as the user already stored with the demo address, with a database session", async () => {
    const { store, linked } = await storeWithEmailLinkUser();
    const passwordUser = await seedDemoUser(store);
    expect(passwordUser.id).toBe(linked.id);
    const client = new TestClient(demoAuthConfig({ secret: SECRET, adapter: store, passwordUser }), "http://localhost:3000/api/auth");
    const signedIn = await client.signIn(DEMO_USER.username, DEMO_USER.password);
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/");
    expect(await client.session()).toMatchObject({ user: { email: DEMO_USER.profile.email } });
  });

  it("creates the demo user once on a fresh file, and finds it on the next start", async () => {
    const store = sqliteAdapter(join(dataDir, "appauth.sqlite"));
    await store.migrate();
    const first = await seedDemoUser(store);
    expect(first).toMatchObject(DEMO_USER.profile);
    expect(await seedDemoUser(store)).toMatchObject({ id: first.id });
  });
});
