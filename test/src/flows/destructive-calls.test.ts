/**
 * The audit of docs/concepts/account-safety.md as a test: every sign-in a returning person makes, every
 * session read and update, reaches no adapter method that takes something away (a user, an account, a
 * passkey, a session). Only the person's own sign-out and an expired session do, each exactly as listed.
 * Run on the memory adapter (the reference implementation), watched through a spy, never faked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { Passkey } from "../../../src/providers/passkey.js";
import { passwordProvider, SESSION_COOKIE, testConfig, ADA_PASSWORD, ADA_USERNAME } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { FROM, mailedLink } from "../email/fixtures.js";
import { oidcProvider, signInThroughOp, TWO_PROVIDER_CLIENT } from "../oauth/fixtures.js";
import { PasskeyClient, passkeyConfig, redirectOf, softAuthenticator, type PasskeyConfig } from "../webauthn/fixtures.js";
import { destructive, spiedAdapter, type AdapterCalls } from "../../helpers/spied-adapter.js";

const ADA = "ada@example.com";

let smtp: TestSmtpServer;
let op: TestProvider;
beforeAll(async () => {
  smtp = await startSmtpServer();
  op = await startTestProvider({ clients: [TWO_PROVIDER_CLIENT] });
});
afterAll(async () => {
  await smtp.close();
  await op.close();
});

describe("a returning person's sign-ins and session reads (database sessions)", () => {
  let store: MemoryAdapterInstance;
  let calls: AdapterCalls;
  let config: PasskeyConfig;

  beforeEach(() => {
    store = MemoryAdapter();
    calls = [];
    config = passkeyConfig({
      adapter: spiedAdapter(store, calls),
      session: { strategy: "database" },
      providers: [Passkey(), Nodemailer({ server: smtp.server, from: FROM }), oidcProvider(op)],
    });
  });

  /** Runs `step`, and answers the destructive adapter calls it made. */
  async function destructiveCallsOf(step: () => Promise<unknown>): Promise<string[]> {
    calls.length = 0;
    await step();
    return destructive(calls);
  }

  it("through an OpenID Provider, the second time and after", async () => {
    await signInThroughOp(op, new TestClient(config));
    const again = new TestClient(config);
    expect(await destructiveCallsOf(() => signInThroughOp(op, again))).toEqual([]);
    expect(await again.session()).toMatchObject({ user: { email: ADA } });
  });

  it("through an email link, the second time and after", async () => {
    const first = new TestClient(config);
    await first.get((await mailedLink(first, smtp, ADA)).link.href);
    const again = new TestClient(config);
    const { link } = await mailedLink(again, smtp, ADA);
    expect(await destructiveCallsOf(() => again.get(link.href))).toEqual([]);
    expect(await again.session()).toMatchObject({ user: { email: ADA } });
  });

  it("with a passkey registered while signed in", async () => {
    const owner = new PasskeyClient(config);
    await owner.get((await mailedLink(owner, smtp, ADA)).link.href);
    const key = await softAuthenticator();
    const options = await owner.options({ action: "register" });
    if (options.action !== "register") throw new Error("expected register options");
    await owner.answer("register", await key.register(options.options));
    const elsewhere = new PasskeyClient(config);
    expect(await destructiveCallsOf(async () => expect(redirectOf(await elsewhere.authenticate(key)).error).toBeNull())).toEqual([]);
  });

  it("as the user Auth.js stored unverified, through the account already linked (the address is verified, nothing detached)", async () => {
    const user = await store.createUser({ id: "authjs-user", email: ADA, name: "Ada", emailVerified: null });
    await store.linkAccount({ userId: user.id, type: "oidc", provider: "oidc", providerAccountId: "ada" });
    const client = new TestClient(config);
    expect(await destructiveCallsOf(() => signInThroughOp(op, client))).toEqual([]);
    expect(await store.getUser(user.id)).toMatchObject({ id: user.id, emailVerified: expect.any(Date) });
  });

  it("as the user Auth.js stored unverified, through an email link: only the claim, which keeps the user (never deleteUser)", async () => {
    const user = await store.createUser({ id: "authjs-user", email: ADA, name: "Ada", emailVerified: null });
    await store.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "gh-ada" });
    const client = new TestClient(config);
    const { link } = await mailedLink(client, smtp, ADA);
    expect(await destructiveCallsOf(() => client.get(link.href))).toEqual(["claimUnverifiedUser"]);
    expect(await store.getUser(user.id)).toMatchObject({ id: user.id, emailVerified: expect.any(Date) });
  });

  it("reading and updating the session", async () => {
    const client = new TestClient(config);
    await signInThroughOp(op, client);
    expect(
      await destructiveCallsOf(async () => {
        await client.session();
        expect((await client.postJson("/session", { csrfToken: await client.csrf(), data: { theme: "dark" } })).status).toBe(200);
        await client.session();
      }),
    ).toEqual([]);
  });

  it("reaches deleteSession only for the person's own sign-out, and for a session found expired", async () => {
    const client = new TestClient(config);
    await signInThroughOp(op, client);
    expect(await destructiveCallsOf(() => client.signOut())).toEqual(["deleteSession"]);

    const expiring = new TestClient(config);
    await signInThroughOp(op, expiring);
    const token = expiring.cookie(SESSION_COOKIE)!;
    await store.updateSession({ sessionToken: token, expires: new Date(Date.now() - 1000) });
    expect(await destructiveCallsOf(() => expiring.session())).toEqual(["deleteSession"]);
  });
});

describe("credentials sign-ins with an adapter (JWT sessions)", () => {
  it("reach no destructive adapter method", async () => {
    const calls: AdapterCalls = [];
    const config = testConfig({ adapter: spiedAdapter(MemoryAdapter(), calls), session: { strategy: "jwt" }, providers: [passwordProvider()] });
    const client = new TestClient(config);
    await client.signIn(ADA_USERNAME, ADA_PASSWORD);
    await client.session();
    expect(await client.session()).toMatchObject({ user: { name: "Ada Lovelace" } });
    expect(destructive(calls)).toEqual([]);
  });
});
