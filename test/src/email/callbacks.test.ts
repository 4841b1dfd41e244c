/**
 * The application's say in email sign-in: the `signIn` callback before a link is sent and again
 * when it is followed, the user records it leads to (`emailVerified`, new or existing), the new-user
 * page, the events, and the verify-request page shown in between.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { CallbacksOptions, EventCallbacks } from "../../../src/types.js";
import { ORIGIN } from "../../helpers/config.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  emailConfig,
  expectErrorRedirect,
  location,
  mailedLink,
  recordTokens,
  requestLink,
  sessionEmail,
  TestClient,
} from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

type SignInParams = Parameters<NonNullable<CallbacksOptions["signIn"]>>[0];

describe("the signIn callback", () => {
  it("is asked before the link is sent, with email.verificationRequest, and again without it when the link is followed", async () => {
    const signIn = vi.fn((_params: SignInParams) => true);
    const client = new TestClient(emailConfig({ smtp, config: { callbacks: { signIn } } }));
    const { link } = await mailedLink(client, smtp, "asked@example.test");

    expect(signIn).toHaveBeenCalledTimes(1);
    expect(signIn.mock.calls[0]![0]).toMatchObject({
      user: { email: "asked@example.test" },
      account: { provider: "nodemailer", type: "email", providerAccountId: "asked@example.test" },
      email: { verificationRequest: true },
    });

    await client.get(link.href);
    expect(signIn).toHaveBeenCalledTimes(2);
    const second = signIn.mock.calls[1]![0];
    expect(second).toMatchObject({ user: { email: "asked@example.test" }, account: { provider: "nodemailer", type: "email" } });
    expect(second.email).toBeUndefined();
    expect(await sessionEmail(client)).toBe("asked@example.test");
  });

  it("describes a known user by their stored record when the link is asked for", async () => {
    const adapter = MemoryAdapter();
    const known = await adapter.createUser({ id: "user-known", email: "known@example.test", emailVerified: null, name: "Known" });
    const signIn = vi.fn((_params: SignInParams) => true);
    const client = new TestClient(emailConfig({ smtp, adapter, config: { callbacks: { signIn } } }));
    await mailedLink(client, smtp, "known@example.test");
    expect(signIn.mock.calls[0]![0].user).toMatchObject({ id: known.id, name: "Known", email: "known@example.test" });
  });

  it("refuses with AccessDenied when it returns false for the request: no mail is sent and no token stored", async () => {
    smtp.clear();
    const adapter = recordTokens(MemoryAdapter());
    const signIn = vi.fn(() => false);
    const client = new TestClient(emailConfig({ smtp, adapter, config: { callbacks: { signIn } } }));

    expectErrorRedirect(await requestLink(client, "denied@example.test"), "AccessDenied");
    expect(signIn).toHaveBeenCalledOnce();
    expect(smtp.recipientsSeen).toEqual([]);
    expect(adapter.createdTokens).toEqual([]);
  });

  it("refuses with AccessDenied when it throws for the request, and nothing is sent", async () => {
    smtp.clear();
    const signIn = () => {
      throw new Error("blocked domain");
    };
    const client = new TestClient(emailConfig({ smtp, config: { callbacks: { signIn } } }));
    expectErrorRedirect(await requestLink(client, "thrown@example.test"), "AccessDenied");
    expect(smtp.recipientsSeen).toEqual([]);
  });

  it("sends the browser where it says when it returns a URL for the request, and nothing is sent", async () => {
    smtp.clear();
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter, config: { callbacks: { signIn: () => "/waitlist" } } }));
    const response = await requestLink(client, "diverted@example.test");
    expect(response.status).toBe(302);
    expect(location(response).href).toBe(`${ORIGIN}/waitlist`);
    expect(smtp.recipientsSeen).toEqual([]);
    expect(adapter.createdTokens).toEqual([]);
  });

  it("refuses with AccessDenied when it returns false once the link is followed, and no user is created", async () => {
    const adapter = MemoryAdapter();
    const signIn = vi.fn(({ email }: SignInParams) => email?.verificationRequest === true);
    const client = new TestClient(emailConfig({ smtp, adapter, config: { callbacks: { signIn } } }));
    const { link } = await mailedLink(client, smtp, "late-denied@example.test");

    expectErrorRedirect(await client.get(link.href), "AccessDenied");
    expect(await sessionEmail(client)).toBeNull();
    expect(await adapter.getUserByEmail("late-denied@example.test")).toBeNull();
  });
});

describe("the user an email sign-in leads to", () => {
  it("is created on the first sign-in with emailVerified set to when the link was followed", async () => {
    const adapter = MemoryAdapter();
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "new@example.test");
    expect(await adapter.getUserByEmail("new@example.test")).toBeNull();

    const followed = Date.now();
    await client.get(link.href);
    const user = await adapter.getUserByEmail("new@example.test");
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(user!.emailVerified!.getTime()).toBeGreaterThanOrEqual(followed - 1000);
    expect(user!.emailVerified!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await adapter.getUserByAccount({ provider: "nodemailer", providerAccountId: "new@example.test" })).toMatchObject({
      id: user!.id,
    });
  });

  it("is the existing user nobody verified, same id, now verified (no sign-in deletes or replaces a user)", async () => {
    const adapter = MemoryAdapter();
    const existing = await adapter.createUser({ id: "user-grace", email: "grace@example.test", emailVerified: null, name: "Grace" });
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "grace@example.test");
    await client.get(link.href);

    const user = await adapter.getUserByEmail("grace@example.test");
    expect(user?.id).toBe(existing.id);
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(await sessionEmail(client)).toBe("grace@example.test");
    // The user's data stays (their name included): the defence takes access away, never data.
    expect((await client.session()) as unknown).toMatchObject({ user: { name: "Grace", email: "grace@example.test" } });
  });

  it("keeps the date an existing user's address was first verified", async () => {
    const adapter = MemoryAdapter();
    const verifiedAt = new Date("2024-01-02T03:04:05.000Z");
    await adapter.createUser({ id: "user-old", email: "old@example.test", emailVerified: verifiedAt });
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "old@example.test");
    await client.get(link.href);
    expect((await adapter.getUserByEmail("old@example.test"))?.emailVerified).toEqual(verifiedAt);
  });

  it("signs in with a JWT session as well as a database session", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { session: { strategy: "jwt" } } }));
    const { link } = await mailedLink(client, smtp, "jwt@example.test");
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("jwt@example.test");
  });
});

describe("where a completed email sign-in lands", () => {
  it("is pages.newUser for a new user, carrying the callback URL", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { pages: { newUser: "/welcome" } } }));
    const { link } = await mailedLink(client, smtp, "welcome@example.test", { callbackUrl: "/dashboard" });
    const response = await client.get(link.href);
    const target = location(response);
    expect(target.origin + target.pathname).toBe(`${ORIGIN}/welcome`);
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
  });

  it("is the callback URL for a user who signed in before", async () => {
    const config = emailConfig({ smtp, config: { pages: { newUser: "/welcome" } } });
    const first = await mailedLink(new TestClient(config), smtp, "back@example.test");
    await new TestClient(config).get(first.link.href);

    const client = new TestClient(config);
    const { link } = await mailedLink(client, smtp, "back@example.test", { callbackUrl: "/dashboard" });
    expect(location(await client.get(link.href)).href).toBe(`${ORIGIN}/dashboard`);
  });
});

describe("the events of an email sign-in", () => {
  it("are createUser and signIn (isNewUser) the first time, then signIn alone", async () => {
    const seen: { type: string; message: unknown }[] = [];
    const record =
      (type: string) =>
      (message: unknown): void =>
        void seen.push({ type, message });
    const events: EventCallbacks = { createUser: record("createUser"), signIn: record("signIn"), updateUser: record("updateUser") };
    const config = emailConfig({ smtp, config: { events } });

    const first = new TestClient(config);
    await first.get((await mailedLink(first, smtp, "events@example.test")).link.href);
    expect(seen.map((e) => e.type)).toEqual(["createUser", "signIn"]);
    expect(seen[0]!.message).toMatchObject({ user: { email: "events@example.test" } });
    expect(seen[1]!.message).toMatchObject({
      user: { email: "events@example.test" },
      account: { provider: "nodemailer", type: "email" },
      isNewUser: true,
    });

    seen.length = 0;
    const again = new TestClient(config);
    await again.get((await mailedLink(again, smtp, "events@example.test")).link.href);
    expect(seen.map((e) => e.type)).toEqual(["signIn"]);
    expect(seen[0]!.message).toMatchObject({ isNewUser: false });
  });

  it("include credentialsDetached when a link proves the address of an existing user nobody verified, who keeps their id", async () => {
    const adapter = MemoryAdapter();
    await adapter.createUser({ id: "user-unverified", email: "unverified@example.test", emailVerified: null });
    await adapter.linkAccount({ userId: "user-unverified", provider: "github", providerAccountId: "gh-7", type: "oauth" });
    const credentialsDetached = vi.fn();
    const updateUser = vi.fn();
    const client = new TestClient(emailConfig({ smtp, adapter, config: { events: { credentialsDetached, updateUser } } }));
    await client.get((await mailedLink(client, smtp, "unverified@example.test")).link.href);
    expect(credentialsDetached).toHaveBeenCalledOnce();
    expect(credentialsDetached.mock.calls[0]![0]).toMatchObject({
      user: { id: "user-unverified", email: "unverified@example.test", emailVerified: expect.any(Date) },
      account: { type: "email", providerAccountId: "unverified@example.test" },
      accounts: [{ provider: "github", providerAccountId: "gh-7" }],
      authenticators: [],
      sessions: 0,
    });
    // The address is now verified on the same user: said as an update.
    expect(updateUser).toHaveBeenCalledOnce();
    expect(updateUser.mock.calls[0]![0]).toMatchObject({ user: { id: "user-unverified", emailVerified: expect.any(Date) } });
  });

  it("are not sent for a link that is refused", async () => {
    const signInEvent = vi.fn();
    const config = emailConfig({ smtp, config: { events: { signIn: signInEvent } } });
    const { link } = await mailedLink(new TestClient(config), smtp, "no-event@example.test");
    const broken = new URL(link);
    broken.searchParams.set("token", "0".repeat(64));
    expectErrorRedirect(await new TestClient(config).get(broken.href), "Verification");
    expect(signInEvent).not.toHaveBeenCalled();
  });
});

describe("the verify-request page", () => {
  it("is where a link request lands, and renders as a page telling the person to check their email at the address it went to", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const response = await requestLink(client, "  Page@Example.test ");
    const page = await client.get(location(response).href);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("<h1>Check your email</h1>");
    // The address as normalised, which is the one the mail went to.
    expect(html).toContain('A sign in link has been sent to</p><p class="email-line"><span class="email">page@example.test</span>');
    await smtp.waitForMessage("page@example.test");
  });

  it("redirects to pages.verifyRequest when the application has its own", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { pages: { verifyRequest: "/check-your-inbox" } } }));
    const response = await requestLink(client, "own-page@example.test");
    const page = await client.get(location(response).href);
    expect(page.status).toBe(302);
    const target = location(page);
    expect(target.origin + target.pathname).toBe(`${ORIGIN}/check-your-inbox`);
    expect(target.searchParams.get("provider")).toBe("nodemailer");
    await smtp.waitForMessage("own-page@example.test");
  });
});
