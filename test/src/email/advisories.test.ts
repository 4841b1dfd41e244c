/**
 * Regression tests for the published attacks on email sign-in in comparable libraries, each named
 * after its advisory. Every one runs the real flow: a real SMTP server receives (or must not
 * receive) the mail, and the link is followed as a browser would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import {
  emailConfig,
  expectErrorRedirect,
  mailedLink,
  recordTokens,
  requestLink,
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

beforeEach(() => {
  smtp.clear();
});

describe("CVE-2021-21310: a sign-in token accepted without the address it was sent to", () => {
  it("refuses the attacker's own valid token paired with the victim's address, and creates no victim account", async () => {
    const adapter = MemoryAdapter();
    const config = emailConfig({ smtp, adapter });
    const attacker = new TestClient(config);
    const { link } = await mailedLink(attacker, smtp, "attacker@evil.test");

    expectErrorRedirect(await attacker.get(withParam(link, "email", "victim@example.test")), "Verification");
    expect(await sessionEmail(attacker)).toBeNull();
    expect(await adapter.getUserByEmail("victim@example.test")).toBeNull();
  });

  it("refuses the token with no address at all", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "alone@example.test");
    const bare = new URL(link);
    bare.searchParams.delete("email");
    expectErrorRedirect(await client.get(bare.href), "Verification");
    bare.searchParams.set("email", "");
    expectErrorRedirect(await client.get(bare.href), "Verification");
    expect(await sessionEmail(client)).toBeNull();
  });

  it("does not use up the token when it is tried with the wrong address: its owner still signs in", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    const { link } = await mailedLink(client, smtp, "owner@example.test");
    for (const other of ["victim@example.test", "owner@example.test.evil.test", "owner@example.tes"]) {
      expectErrorRedirect(await client.get(withParam(link, "email", other)), "Verification");
    }
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("owner@example.test");
  });
});

describe("CVE-2022-39263: an address accepted without its token", () => {
  it("refuses the victim's address with a missing, empty or placeholder token, and the victim's own link still works", async () => {
    const adapter = recordTokens(MemoryAdapter());
    const config = emailConfig({ smtp, adapter });
    const victim = new TestClient(config);
    const { link } = await mailedLink(victim, smtp, "victim@example.test");

    const attacker = new TestClient(config);
    const missing = new URL(link);
    missing.searchParams.delete("token");
    expectErrorRedirect(await attacker.get(missing.href), "Verification");
    for (const token of ["", "undefined", "null", "0", "[object Object]", "*", "%"]) {
      expectErrorRedirect(await attacker.get(withParam(link, "token", token)), "Verification");
    }
    // A repeated parameter is not a way around it either.
    expectErrorRedirect(await attacker.get(`${missing.href}&token=&token=x`), "Verification");
    expect(await sessionEmail(attacker)).toBeNull();

    // The adapter was only ever asked about full-length hashes: never an empty or absent token,
    // which a lax adapter might treat as "any token of this address".
    for (const used of adapter.usedTokens) expect(used.token).toMatch(/^[0-9a-f]{64}$/);

    await victim.get(link.href);
    expect(await sessionEmail(victim)).toBe("victim@example.test");
  });

  it("refuses a made-up token for an address that has asked for no link at all", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const forged = new URL("http://localhost:3000/auth/callback/nodemailer");
    forged.search = new URLSearchParams({ email: "nobody-asked@example.test", token: "0".repeat(64) }).toString();
    expectErrorRedirect(await client.get(forged.href), "Verification");
    expect(await sessionEmail(client)).toBeNull();
  });
});

describe("CVE-2022-31127: HTML injected into the sign-in mail", () => {
  const hostile = 'x"onmouseover="alert(1)"style="x.example.test';

  it("escapes a hostile X-Forwarded-Host everywhere it appears in the HTML", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { mail, link } = await mailedLink(client, smtp, "xfh@example.test", { headers: { "x-forwarded-host": hostile } });
    // The header was taken as the host (trustHost is on), so it is in the link...
    expect(link.host).toBe(hostile);
    // ...but never as markup: no attribute of its own, only escaped text.
    expect(mail.html).not.toContain('"onmouseover');
    expect(mail.html).not.toMatch(/\sonmouseover=/i);
    expect(mail.html).toContain("x&quot;onmouseover=&quot;alert(1)&quot;style=&quot;x.example.test");
  });

  it("escapes a hostile Host the same way", async () => {
    const client = new TestClient(emailConfig({ smtp }), `http://${hostile}/auth`);
    const { mail } = await mailedLink(client, smtp, "host@example.test");
    expect(mail.html).not.toContain('"onmouseover');
    expect(mail.html).not.toMatch(/\sonmouseover=/i);
  });

  it("puts no markup at all in the mail when the forwarded host is not a host", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const markup = '"><img src=x onerror=alert(1)><a href="';
    const { mail, link } = await mailedLink(client, smtp, "markup@example.test", { headers: { "x-forwarded-host": markup } });
    expect(link.host).toBe("localhost:3000");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toContain("onerror");
    expect(mail.text).not.toContain("<img");
  });

  it("refuses an address carrying markup, so it reaches no mail", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    for (const address of ['<img src=x onerror=alert(1)>@example.test', 'a"><script>alert(1)</script>@example.test']) {
      expectErrorRedirect(await requestLink(client, address), "EmailSignInError", "signin");
    }
    expect(smtp.recipientsSeen).toEqual([]);
  });

  it("escapes what a custom normalizeIdentifier lets through", async () => {
    const client = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier: (typed) => typed.trim() } }));
    const { mail } = await mailedLink(client, smtp, "x&y'z@example.test");
    expect(mail.html).not.toMatch(/&(?!(?:amp|lt|gt|quot|#39);)/);
    expect(mail.html).not.toContain("y'z");
  });
});

describe("CVE-2022-35924: one sign-in request mailing two inboxes", () => {
  it.each([
    "a@x.test,b@y.test",
    "a@x.test, b@y.test",
    "a@x.test;b@y.test",
    "a@x.test b@y.test",
    "a@x.test，b@y.test",
    "Victim <a@x.test>, b@y.test",
    "a@x.test\nb@y.test",
    "a@x.test\r\nBcc: b@y.test",
  ])("refuses %j with EmailSignInError, and the SMTP server receives nothing for either address", async (typed) => {
    const adapter = recordTokens(MemoryAdapter());
    const client = new TestClient(emailConfig({ smtp, adapter }));
    expectErrorRedirect(await requestLink(client, typed), "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
    expect(smtp.messages).toEqual([]);
    expect(adapter.createdTokens).toEqual([]);
  });

  it("refuses a second address sent as a second form field", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const csrfToken = await client.csrf();
    const body = new URLSearchParams([
      ["csrfToken", csrfToken],
      ["email", "a@x.test"],
      ["email", "b@y.test"],
    ]);
    const response = await client.request("POST", "/signin/nodemailer", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    expect(response.status).toBe(302);
    // Whatever the form parser keeps, at most one address may receive a mail.
    expect(smtp.recipientsSeen.length).toBeLessThanOrEqual(1);
    for (const mail of smtp.messages) expect(mail.to).toHaveLength(1);
  });

  it("refuses a JSON array of addresses", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const csrfToken = await client.csrf();
    const response = await client.postJson("/signin/nodemailer", { csrfToken, email: ["a@x.test", "b@y.test"] });
    expectErrorRedirect(response, "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
  });
});

describe("GHSA-5jpx-9hw9-2fx4: a quoted local part that delivers to the attacker", () => {
  it.each([
    '"e@attacker.test"@victim.test',
    '"e@attacker.test" <victim@victim.test>',
    "e@attacker.test(@victim.test)",
    "victim@victim.test <e@attacker.test>",
    "e@attacker.test@victim.test",
  ])("refuses %j with EmailSignInError and sends no mail", async (typed) => {
    const client = new TestClient(emailConfig({ smtp }));
    expectErrorRedirect(await requestLink(client, typed), "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
  });

  it("refuses a link whose address is such a quoted local part", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "e@attacker.test");
    expectErrorRedirect(await client.get(withParam(link, "email", '"e@attacker.test"@victim.test')), "Verification");
    expect(await sessionEmail(client)).toBeNull();
  });
});

describe("GHSA-7rqj-j65f-68wh: a full-width ＠ slipping past validation", () => {
  it("validates the address after NFKC, mails exactly that address, and the link signs in exactly that address", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { mail, link } = await mailedLink(client, smtp, "victim＠example.test", { to: "victim@example.test" });
    expect(mail.to).toEqual(["victim@example.test"]);
    expect(smtp.recipientsSeen).toEqual(["victim@example.test"]);
    expect(link.searchParams.get("email")).toBe("victim@example.test");
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("victim@example.test");
  });

  it.each(["attacker@evil.test＠victim.test", "attacker＠evil.test@victim.test", "\"attacker＠evil.test\"@victim.test", "a@x.test﹐b@y.test"])(
    "refuses %j, where NFKC reveals a second address, and sends no mail",
    async (typed) => {
      const client = new TestClient(emailConfig({ smtp }));
      expectErrorRedirect(await requestLink(client, typed), "EmailSignInError", "signin");
      expect(smtp.recipientsSeen).toEqual([]);
    },
  );

  it("accepts a link whose address is written with a full-width ＠ as the same address", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link } = await mailedLink(client, smtp, "wide@example.test");
    await client.get(withParam(link, "email", "wide＠example.test"));
    expect(await sessionEmail(client)).toBe("wide@example.test");
  });
});
