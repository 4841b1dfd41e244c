/**
 * A magic link belongs to the email provider that mailed it: followed at another email provider's
 * callback it is refused like an unknown link, and the record stays, so the link still works where
 * it was meant to. A `signIn` policy that differs per provider cannot be side-stepped by asking one
 * provider for the link and following it at the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { testConfig } from "../../helpers/config.js";
import {
  expectErrorRedirect,
  expectVerifyRequest,
  FROM,
  linkIn,
  recordTokens,
  requestLink,
  sessionEmail,
  TestClient,
} from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** Two email providers over the same SMTP server: `public-mail` for anyone, `staff-mail` for staff addresses only. */
function twoProviders() {
  const adapter = recordTokens(MemoryAdapter());
  const signInsSeen: string[] = [];
  const config = testConfig({
    adapter,
    providers: [
      Nodemailer({ id: "public-mail", server: smtp.server, from: FROM }),
      Nodemailer({ id: "staff-mail", server: smtp.server, from: FROM }),
    ],
    callbacks: {
      signIn: ({ account, user }) => {
        signInsSeen.push(`${account?.provider}:${user.email}`);
        return account?.provider !== "staff-mail" || String(user.email).endsWith("@staff.example.test");
      },
    },
  });
  return { adapter, config, signInsSeen };
}

/** Asks `providerId` for a link for `email` and reads it from the mail. */
async function linkFrom(client: TestClient, providerId: string, email: string): Promise<URL> {
  expectVerifyRequest(await requestLink(client, email, { providerId }), providerId);
  return linkIn(await smtp.waitForMessage(email));
}

/** The same link, pointed at another provider's callback. */
function atCallbackOf(link: URL, providerId: string): string {
  const moved = new URL(link);
  moved.pathname = moved.pathname.replace(/[^/]+$/, providerId);
  return moved.href;
}

describe("a magic link followed at another email provider's callback", () => {
  it("is refused as Verification, signs no one in, and still works at the provider that mailed it", async () => {
    const { adapter, config } = twoProviders();
    const client = new TestClient(config);
    const link = await linkFrom(client, "public-mail", "eve@outside.test");
    expect(link.pathname).toBe("/auth/callback/public-mail");

    expectErrorRedirect(await client.get(atCallbackOf(link, "staff-mail")), "Verification");
    expect(await sessionEmail(client)).toBeNull();
    // Looked up at staff-mail, the token matched no record, so nothing was consumed.
    expect(adapter.usedTokens.map((use) => use.found)).toEqual([false]);

    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("eve@outside.test");
  });

  it("cannot sign in past the other provider's signIn policy", async () => {
    const { config, signInsSeen } = twoProviders();
    const client = new TestClient(config);
    // staff-mail refuses the outsider outright...
    expectErrorRedirect(await requestLink(client, "eve@outside.test", { providerId: "staff-mail" }), "AccessDenied");
    // ...and the outsider's public-mail link does not open staff-mail either.
    const link = await linkFrom(client, "public-mail", "eve@outside.test");
    expectErrorRedirect(await client.get(atCallbackOf(link, "staff-mail")), "Verification");
    expect(await sessionEmail(client)).toBeNull();
    expect(signInsSeen.filter((seen) => seen.startsWith("staff-mail:"))).toEqual(["staff-mail:eve@outside.test"]);
  });

  it("leaves links working at their own provider when both providers mailed the same address", async () => {
    const { config } = twoProviders();
    const [first, second] = [new TestClient(config), new TestClient(config)];
    const staffLink = await linkFrom(first, "staff-mail", "grace@staff.example.test");
    const publicLink = await linkFrom(second, "public-mail", "grace@staff.example.test");

    // Each token is stored under the same address, bound to its own provider: swapped, neither opens.
    expectErrorRedirect(await first.get(atCallbackOf(staffLink, "public-mail")), "Verification");
    expectErrorRedirect(await second.get(atCallbackOf(publicLink, "staff-mail")), "Verification");

    await first.get(staffLink.href);
    await second.get(publicLink.href);
    expect(await sessionEmail(first)).toBe("grace@staff.example.test");
    expect(await sessionEmail(second)).toBe("grace@staff.example.test");
  });
});
