/**
 * Which address a link goes to: the default normaliser (NFKC, trim, lowercase, then exactly one
 * plain address) and a provider's own `normalizeIdentifier`, both on their own and through the flow,
 * where the address the mail goes to is the address the link signs in.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { normalizeEmail } from "../../../src/email/identifier.js";
import { EmailSignInError } from "../../../src/errors.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, expectErrorRedirect, mailedLink, requestLink, sessionEmail, TestClient } from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

describe("the default normalizeIdentifier", () => {
  it.each([
    ["ada@example.test", "ada@example.test"],
    ["  Ada.Lovelace@Example.TEST\t", "ada.lovelace@example.test"],
    ["ＡＤＡ＠ｅｘａｍｐｌｅ．ｔｅｓｔ", "ada@example.test"],
    ["ada＠example.test", "ada@example.test"],
    ["o'brien+news@mail.example.test", "o'brien+news@mail.example.test"],
    ["x_y-z@a-b.example.test", "x_y-z@a-b.example.test"],
  ])("turns %j into %j", (typed, address) => {
    expect(normalizeEmail(typed)).toBe(address);
  });

  it.each([
    "",
    "   ",
    "ada",
    "@example.test",
    "ada@",
    "ada@localhost",
    "ada@@example.test",
    "ada@b@example.test",
    "a@x.test,b@y.test",
    "a@x.test;b@y.test",
    "a@x.test b@y.test",
    "a@x.test，b@y.test",
    "Ada <ada@example.test>",
    "<ada@example.test>",
    '"ada"@example.test',
    '"e@attacker.test"@victim.test',
    "ada@example.test (Ada)",
    "ada(comment)@example.test",
    "ada@exam\nple.test",
    "ada\u0000@example.test",
    "ada\u200b@example.test",
    ".ada@example.test",
    "ada.@example.test",
    "ada..lovelace@example.test",
    "ada@-example.test",
    "ada@example..test",
    "ada@[127.0.0.1]",
    `${"a".repeat(65)}@example.test`,
    `ada@${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(60)}.test`,
  ])("refuses %j with EmailSignInError", (typed) => {
    expect(() => normalizeEmail(typed)).toThrow(EmailSignInError);
  });

  it("refuses anything that is not a string", () => {
    for (const value of [undefined, null, 42, ["ada@example.test"], { email: "ada@example.test" }]) {
      expect(() => normalizeEmail(value)).toThrow(EmailSignInError);
    }
  });

  it("validates after normalising, so what it checked is what it returns", () => {
    // Full-width letters and ＠ only become an address after NFKC; a check before it would refuse them.
    const typed = "  ＧＲＡＣＥ＠Ｅｘａｍｐｌｅ．ＴＥＳＴ  ";
    expect(normalizeEmail(typed)).toBe("grace@example.test");
    expect(normalizeEmail(normalizeEmail(typed))).toBe("grace@example.test");
  });
});

describe("the address a link is sent to", () => {
  it("is the normalised address, and the link signs in exactly that address", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { link, mail } = await mailedLink(client, smtp, "  Ada.Lovelace@Example.TEST ", { to: "ada.lovelace@example.test" });
    expect(mail.to).toEqual(["ada.lovelace@example.test"]);
    expect(mail.toHeader).toBe("ada.lovelace@example.test");
    expect(link.searchParams.get("email")).toBe("ada.lovelace@example.test");
    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("ada.lovelace@example.test");
  });

  it("is refused with EmailSignInError on the sign-in page when it is not one plain address, and nothing is mailed", async () => {
    smtp.clear();
    const client = new TestClient(emailConfig({ smtp }));
    expectErrorRedirect(await requestLink(client, "not an address"), "EmailSignInError", "signin");
    expectErrorRedirect(await requestLink(client, ""), "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
  });
});

describe("a provider's own normalizeIdentifier", () => {
  it("decides the address: the mail goes to what it returns, and the link signs in as that", async () => {
    // A site that folds "+tags" away, so ada+news@ and ada@ are one person.
    const normalizeIdentifier = vi.fn((typed: string) => typed.trim().toLowerCase().replace(/\+[^@]*@/, "@"));
    const client = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier } }));
    const { link, mail } = await mailedLink(client, smtp, "Ada+News@Example.test", { to: "ada@example.test" });

    expect(normalizeIdentifier).toHaveBeenCalledWith("Ada+News@Example.test");
    expect(mail.to).toEqual(["ada@example.test"]);
    expect(link.searchParams.get("email")).toBe("ada@example.test");

    await client.get(link.href);
    // The link's address goes through the same normaliser when it is followed.
    expect(normalizeIdentifier).toHaveBeenLastCalledWith("ada@example.test");
    expect(await sessionEmail(client)).toBe("ada@example.test");
  });

  it("replaces the default: an address the default would lowercase keeps its case", async () => {
    const client = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier: (typed) => typed.trim() } }));
    const { mail } = await mailedLink(client, smtp, " Mixed.Case@example.test ", { to: "Mixed.Case@example.test" });
    expect(mail.to).toEqual(["Mixed.Case@example.test"]);
  });

  it("refuses the sign-in with EmailSignInError when it throws, and nothing is mailed", async () => {
    smtp.clear();
    const normalizeIdentifier = () => {
      throw new Error("only example.test addresses");
    };
    const client = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier } }));
    expectErrorRedirect(await requestLink(client, "ada@elsewhere.test"), "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
  });

  it("cannot hand more than one plain address to the mailer, whatever it returns", async () => {
    smtp.clear();
    const returned = ["a@x.test,b@y.test", "a@x.test b@y.test", "A <a@x.test>", '"a@x.test"@y.test', "no-at-sign", "a@x.test\r\nBcc: b@y.test", ""];
    for (const value of returned) {
      const client = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier: () => value } }));
      expectErrorRedirect(await requestLink(client, "a@x.test"), "EmailSignInError", "signin");
    }
    const notAString = new TestClient(emailConfig({ smtp, provider: { normalizeIdentifier: () => 42 as unknown as string } }));
    expectErrorRedirect(await requestLink(notAString, "a@x.test"), "EmailSignInError", "signin");
    expect(smtp.recipientsSeen).toEqual([]);
    expect(smtp.messages).toEqual([]);
  });
});
