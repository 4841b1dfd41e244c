/**
 * JWT sessions of users whose address nobody verified carry their sign-in time and are checked against
 * the store on read (src/session/unverified-sign-in.ts); everyone else's never touch it.
 */
import { encode as authJsEncode } from "@auth/core/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { getToken } from "../../../src/jwt/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { UNVERIFIED_SIGN_IN_CLAIM } from "../../../src/session/unverified-sign-in.js";
import { SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";
import { FROM, mailedLink } from "../email/fixtures.js";
import { oidcProvider, signInThroughOp, TWO_PROVIDER_CLIENT } from "../oauth/fixtures.js";
import { spiedAdapter, type AdapterCalls } from "../../helpers/spied-adapter.js";

let op: TestProvider;
let smtp: TestSmtpServer;
beforeAll(async () => {
  op = await startTestProvider({ clients: [TWO_PROVIDER_CLIENT] });
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await op.close();
  await smtp.close();
});

function setup() {
  const store = MemoryAdapter();
  const calls: AdapterCalls = [];
  const config = testConfig({
    adapter: spiedAdapter(store, calls),
    session: { strategy: "jwt" },
    providers: [oidcProvider(op), Nodemailer({ server: smtp.server, from: FROM })],
  });
  return { store, calls, config };
}

/** The calls besides the revocation check every JWT read with an adapter makes (src/session/revocation.ts). */
function besidesRevocations(calls: AdapterCalls): AdapterCalls {
  return calls.filter((call) => !/SessionRevocations$/.test(String(call)));
}

async function tokenOf(client: TestClient) {
  const req = new Request("http://localhost:3000/", { headers: { cookie: client.cookieHeader() ?? "" } });
  return getToken({ req, secret: SECRET, salt: SESSION_COOKIE });
}

describe("a JWT session", () => {
  it("of a user whose address is verified carries no check and is read without the store", async () => {
    const { calls, config } = setup();
    const client = new TestClient(config);
    await signInThroughOp(op, client, { accountId: "ada" });
    expect(await tokenOf(client)).not.toHaveProperty(UNVERIFIED_SIGN_IN_CLAIM);
    calls.length = 0;
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(besidesRevocations(calls)).toEqual([]);
  });

  it("of a user whose address nobody verified carries its sign-in time, and is read while the address stays unverified", async () => {
    const { calls, config } = setup();
    const client = new TestClient(config);
    const before = Math.floor(Date.now() / 1000);
    await signInThroughOp(op, client, { accountId: "grace" });
    const claim = (await tokenOf(client))?.[UNVERIFIED_SIGN_IN_CLAIM];
    expect(claim).toBeGreaterThanOrEqual(before);
    expect(claim).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    calls.length = 0;
    expect(await client.session()).toMatchObject({ user: { email: "grace@example.com" } });
    expect(besidesRevocations(calls)).toEqual(["getUser"]);
  });

  it("of such a user reads as no session, its cookie cleared, once someone proves the address", async () => {
    const { store, config } = setup();
    const client = new TestClient(config);
    await signInThroughOp(op, client, { accountId: "grace" });
    const prover = new TestClient(config);
    await prover.get((await mailedLink(prover, smtp, "grace@example.com")).link.href);
    expect(await client.session()).toBeNull();
    expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
    // The prover's own session is of a verified user: unchecked.
    expect(await tokenOf(prover)).not.toHaveProperty(UNVERIFIED_SIGN_IN_CLAIM);
    expect(await prover.session()).toMatchObject({ user: { email: "grace@example.com" } });
    expect((await store.getUserByEmail("grace@example.com"))!.emailVerified).toBeInstanceOf(Date);
  });

  it("of such a user reads as no session once the user is gone", async () => {
    const { store, config } = setup();
    const client = new TestClient(config);
    await signInThroughOp(op, client, { accountId: "grace" });
    await store.deleteUser((await store.getUserByEmail("grace@example.com"))!.id);
    expect(await client.session()).toBeNull();
  });
});

describe("an Auth.js JWT session cookie of a stored user nobody verified", () => {
  async function squattersAuthJsCookie(store: ReturnType<typeof MemoryAdapter>): Promise<string> {
    const user = await store.createUser({ id: "authjs-squatter", email: "grace@example.com", name: "Not Grace", emailVerified: null });
    return authJsEncode({ token: { sub: user.id, email: user.email }, secret: SECRET, salt: "authjs.session-token" });
  }

  it("is adopted with the check, so it reads while the address stays unverified", async () => {
    const { store, config } = setup();
    const client = new TestClient(config);
    client.setCookie("authjs.session-token", await squattersAuthJsCookie(store));
    expect(await client.session()).toMatchObject({ user: { email: "grace@example.com" } });
    expect(await tokenOf(client)).toHaveProperty(UNVERIFIED_SIGN_IN_CLAIM);
    expect(await client.session()).toMatchObject({ user: { email: "grace@example.com" } });
  });

  it("reads as no session once someone proves the address, adopted before or not", async () => {
    const { store, config } = setup();
    const cookie = await squattersAuthJsCookie(store);
    const adopted = new TestClient(config);
    adopted.setCookie("authjs.session-token", cookie);
    await adopted.session();
    // Within the same second as the token's iat, a proof still counts as after it.
    const prover = new TestClient(config);
    await prover.get((await mailedLink(prover, smtp, "grace@example.com")).link.href);
    expect(await adopted.session()).toBeNull();
    const notYetAdopted = new TestClient(config);
    notYetAdopted.setCookie("authjs.session-token", cookie);
    expect(await notYetAdopted.session()).toBeNull();
  });
});
