/**
 * Users and accounts through an adapter, with either session strategy: the first sign-in creates
 * the user and links the account, later ones find them, and the linking rules decide when an OP
 * account may join an existing user (DESIGN §6: by email only when opted in and verified on both sides).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ORIGIN } from "../../helpers/config.js";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../src/adapters/memory/index.js";
import type { AuthConfig, EventCallbacks } from "../../../src/types.js";
import type { OIDCConfig } from "../../../src/providers/oauth-types.js";
import {
  BASE_URL,
  browser,
  expectNoSession,
  expectSignedInAs,
  oauthConfig,
  oidcProvider,
  setsSession,
  signInThroughOp,
  TWO_PROVIDER_CLIENT,
} from "./fixtures.js";

const NOT_LINKED = `${BASE_URL}/signin?error=OAuthAccountNotLinked`;

function recordingEvents() {
  return {
    createUser: vi.fn<NonNullable<EventCallbacks["createUser"]>>(),
    linkAccount: vi.fn<NonNullable<EventCallbacks["linkAccount"]>>(),
    signIn: vi.fn<NonNullable<EventCallbacks["signIn"]>>(),
  };
}

describe.each(["jwt", "database"] as const)("users and accounts with the %s session strategy", (strategy) => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider({ clients: [TWO_PROVIDER_CLIENT] });
  });
  afterAll(() => op.close());

  function setup(options: { providers?: Partial<OIDCConfig>[]; config?: Partial<AuthConfig> } = {}) {
    const adapter: MemoryAdapterInstance = MemoryAdapter();
    const events = recordingEvents();
    const providers = (options.providers ?? [{}]).map((overrides) => oidcProvider(op, overrides));
    const config = oauthConfig(providers, { adapter, session: { strategy }, events, ...options.config });
    return { adapter, events, config };
  }

  it("creates the user and links the account on the first sign-in, announcing createUser, linkAccount and signIn", async () => {
    const { adapter, events, config } = setup();
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    await expectSignedInAs(client, callback, "ada@example.com");

    const user = await adapter.getUserByEmail("ada@example.com");
    expect(user).toMatchObject({ name: "Ada Lovelace", image: "https://img.example/ada.png" });
    expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: user!.id });
    expect(events.createUser).toHaveBeenCalledOnce();
    expect(events.createUser.mock.calls[0]![0]).toMatchObject({ user: { id: user!.id, email: "ada@example.com" } });
    expect(events.linkAccount).toHaveBeenCalledOnce();
    expect(events.linkAccount.mock.calls[0]![0]).toMatchObject({
      user: { id: user!.id },
      account: { provider: "oidc", providerAccountId: "ada" },
    });
    expect(events.signIn).toHaveBeenCalledOnce();
    expect(events.signIn.mock.calls[0]![0]).toMatchObject({ user: { id: user!.id }, isNewUser: true });
  });

  it("stores people whose provider gives no address with email null (as Auth.js does), any number of them", async () => {
    const { adapter, config } = setup();
    const createUser = vi.spyOn(adapter, "createUserAndLinkAccount");
    op.accounts.set("nomail-1", { name: "First Private" });
    op.accounts.set("nomail-2", { name: "Second Private" });
    try {
      for (const accountId of ["nomail-1", "nomail-2"]) {
        const client = browser(config);
        const callback = await signInThroughOp(op, client, { accountId });
        expect(setsSession(callback)).toBe(true);
      }
      expect(createUser.mock.calls.map(([user]) => user.email)).toEqual([null, null]);
      const users = await Promise.all(["nomail-1", "nomail-2"].map((id) => adapter.getUserByAccount({ provider: "oidc", providerAccountId: id })));
      expect(users.map((user) => user?.email)).toEqual([null, null]);
    } finally {
      op.accounts.delete("nomail-1");
      op.accounts.delete("nomail-2");
    }
  });

  it("finds the same user on a second sign-in, creating nothing", async () => {
    const { adapter, events, config } = setup();
    await signInThroughOp(op, browser(config));
    const first = await adapter.getUserByEmail("ada@example.com");

    const again = browser(config);
    const callback = await signInThroughOp(op, again);
    await expectSignedInAs(again, callback, "ada@example.com");
    expect(events.createUser).toHaveBeenCalledOnce();
    expect(events.linkAccount).toHaveBeenCalledOnce();
    expect(events.signIn).toHaveBeenCalledTimes(2);
    expect(events.signIn.mock.calls[1]![0]).toMatchObject({ user: { id: first!.id }, isNewUser: false });
    expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: first!.id });
  });

  if (strategy === "database") {
    it("keeps the session in the adapter, the cookie holding only its token", async () => {
      const { adapter, config } = setup();
      const client = browser(config);
      await signInThroughOp(op, client);
      const token = client.cookie("appauth.session-token")!;
      expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { email: "ada@example.com" } });
    });
  }

  it("sends first sign-ins, and only those, to pages.newUser with the callbackUrl", async () => {
    const { config } = setup({ config: { pages: { newUser: "/welcome" } } });
    const first = await signInThroughOp(op, browser(config), { callbackUrl: "/after" });
    const welcome = new URL(first.headers.get("location")!);
    expect(`${welcome.origin}${welcome.pathname}`).toBe(`${ORIGIN}/welcome`);
    expect(welcome.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/after`);
    expect(setsSession(first)).toBe(true);

    const second = await signInThroughOp(op, browser(config), { callbackUrl: "/after" });
    expect(second.headers.get("location")).toBe(`${ORIGIN}/after`);
  });

  it("sets emailVerified on a created user only when the OP asserted email_verified: true", async () => {
    const { adapter, config } = setup();
    await signInThroughOp(op, browser(config), { accountId: "ada" });
    await signInThroughOp(op, browser(config), { accountId: "grace" });
    expect((await adapter.getUserByEmail("ada@example.com"))!.emailVerified).toBeInstanceOf(Date);
    expect((await adapter.getUserByEmail("grace@example.com"))!.emailVerified).toBeNull();
  });

  it("links a new provider's account to the user already signed in", async () => {
    const { adapter, events, config } = setup({ providers: [{}, { id: "oidc-b", name: "Test OP (B)" }] });
    const client = browser(config);
    await signInThroughOp(op, client, { providerId: "oidc", accountId: "ada" });
    const ada = await adapter.getUserByEmail("ada@example.com");

    const callback = await signInThroughOp(op, client, { providerId: "oidc-b", accountId: "grace" });
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/after`);
    expect(await adapter.getUserByAccount({ provider: "oidc-b", providerAccountId: "grace" })).toMatchObject({ id: ada!.id });
    expect(await adapter.getUserByEmail("grace@example.com")).toBeNull();
    expect(events.createUser).toHaveBeenCalledOnce();
    expect(events.linkAccount).toHaveBeenCalledTimes(2);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("refuses with OAuthAccountNotLinked an account linked to one user while another is signed in", async () => {
    const { adapter, config } = setup();
    await signInThroughOp(op, browser(config), { accountId: "ada" });
    const graceBrowser = browser(config);
    await signInThroughOp(op, graceBrowser, { accountId: "grace" });
    const sessionBefore = graceBrowser.cookie("appauth.session-token");

    const callback = await signInThroughOp(op, graceBrowser, { accountId: "ada" });
    expect(callback.headers.get("location")).toBe(NOT_LINKED);
    expect(setsSession(callback)).toBe(false);
    expect(graceBrowser.cookie("appauth.session-token")).toBe(sessionBefore);
    expect(await graceBrowser.session()).toMatchObject({ user: { email: "grace@example.com" } });
    const ada = await adapter.getUserByEmail("ada@example.com");
    expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: ada!.id });
  });

  describe("linking by email", () => {
    async function existingUser(adapter: MemoryAdapterInstance, email: string, verified: boolean) {
      return adapter.createUser({ id: crypto.randomUUID(), email, name: "Existing", image: null, emailVerified: verified ? new Date() : null });
    }

    it("links to the user with that email when opted in, their email verified and the OP asserting it", async () => {
      const { adapter, events, config } = setup({ providers: [{ allowDangerousEmailAccountLinking: true }] });
      const existing = await existingUser(adapter, "ada@example.com", true);
      const client = browser(config);
      const callback = await signInThroughOp(op, client, { accountId: "ada" });
      await expectSignedInAs(client, callback, "ada@example.com");
      expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: existing.id });
      expect(events.createUser).not.toHaveBeenCalled();
      expect(events.linkAccount).toHaveBeenCalledOnce();
    });

    it("claims the existing user whose email was never verified: same id, verified, what was linked before detached (no pre-hijacked account)", async () => {
      const credentialsDetached = vi.fn<NonNullable<EventCallbacks["credentialsDetached"]>>();
      const { adapter, events, config } = setup({ providers: [{ allowDangerousEmailAccountLinking: true }] });
      config.events = { ...events, credentialsDetached };
      const squatted = await existingUser(adapter, "ada@example.com", false);
      await adapter.linkAccount({ userId: squatted.id, provider: "squatter-idp", providerAccountId: "sq-1", type: "oauth" });
      const client = browser(config);
      const callback = await signInThroughOp(op, client, { accountId: "ada" });
      await expectSignedInAs(client, callback, "ada@example.com");
      const user = await adapter.getUserByEmail("ada@example.com");
      expect(user!.id).toBe(squatted.id);
      expect(user!.emailVerified).toBeInstanceOf(Date);
      expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: squatted.id });
      expect(await adapter.getUserByAccount({ provider: "squatter-idp", providerAccountId: "sq-1" })).toBeNull();
      expect(events.createUser).not.toHaveBeenCalled();
      expect(credentialsDetached).toHaveBeenCalledOnce();
      expect(credentialsDetached.mock.calls[0]![0]).toMatchObject({
        user: { id: squatted.id },
        account: { provider: "oidc", providerAccountId: "ada" },
        accounts: [{ provider: "squatter-idp", providerAccountId: "sq-1" }],
        authenticators: [],
        sessions: 0,
      });
    });

    it("refuses with OAuthAccountNotLinked when the OP does not assert the email verified (Grace)", async () => {
      const { adapter, config } = setup({ providers: [{ allowDangerousEmailAccountLinking: true }] });
      await existingUser(adapter, "grace@example.com", true);
      const client = browser(config);
      const callback = await signInThroughOp(op, client, { accountId: "grace" });
      expect(callback.headers.get("location")).toBe(NOT_LINKED);
      await expectNoSession(client, callback);
      expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "grace" })).toBeNull();
    });

    it("refuses with OAuthAccountNotLinked without allowDangerousEmailAccountLinking, however verified", async () => {
      const { adapter, events, config } = setup();
      await existingUser(adapter, "ada@example.com", true);
      const client = browser(config);
      const callback = await signInThroughOp(op, client, { accountId: "ada" });
      expect(callback.headers.get("location")).toBe(NOT_LINKED);
      await expectNoSession(client, callback);
      expect(await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" })).toBeNull();
      expect(events.linkAccount).not.toHaveBeenCalled();
    });
  });
});
