/**
 * A property over whatever a person (or an attacker) types as their address: the real SMTP server
 * receives at most one mail with exactly one envelope recipient, that recipient is the normalised
 * address, and the mailed link signs in exactly that address.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeEmail } from "../../../src/email/identifier.js";
import { propertyOptions } from "../../helpers/property.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, linkIn, location, requestLink, sessionEmail, TestClient } from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

/** Pieces an address is made of, and the ones that have split or redirected addresses elsewhere. */
const PIECES = [
  "a", "Z", "0", ".", "-", "_", "+", "'", "&", "=", "@", "＠", "﹫", ",", "，", "﹐", ";", ":", " ", "\t", "\n", "\r\n",
  "\u0000", "\u00a0", "\u200b", '"', "<", ">", "(", ")", "[", "]", "\\", "%40", "x.test", "example.test",
  "ｅｘａｍｐｌｅ．ｔｅｓｔ", "Ｅ", "İ", "ﬁ", "ß", "=?utf-8?b?QA==?=", "Bcc:",
];
const SEPARATORS = [",", ", ", ";", " ", "\n", "，", "<", ">", "@", "＠", '"', ""];

const typedAddress = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.emailAddress(),
  fc.emailAddress().map((address) => address.toUpperCase().replace("@", "＠")),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((pieces) => pieces.join("")),
  fc
    .tuple(fc.emailAddress(), fc.constantFrom(...SEPARATORS), fc.emailAddress(), fc.constantFrom("", " ", '"'))
    .map(([a, separator, b, quote]) => `${quote}${a}${quote}${separator}${b}`),
);

/** The library's own normaliser, or null when it refuses the input. */
function normalised(typed: string): string | null {
  try {
    return normalizeEmail(typed);
  } catch {
    return null;
  }
}

describe("the recipient of a sign-in mail", () => {
  it("is exactly the normalised address typed, and the only one: never two, never another", async () => {
    const config = emailConfig({ smtp });
    await fc.assert(
      fc.asyncProperty(typedAddress, async (typed) => {
        smtp.clear();
        const client = new TestClient(config);
        const response = await requestLink(client, typed);
        const expected = normalised(typed);

        expect(smtp.messages.length).toBeLessThanOrEqual(1);
        if (expected === null) {
          expect(smtp.recipientsSeen).toEqual([]);
          expect(location(response).searchParams.get("error")).toBe("EmailSignInError");
          return;
        }
        expect(location(response).pathname).toBe("/auth/verify-request");
        expect(smtp.recipientsSeen).toEqual([expected]);
        const [mail] = smtp.messages;
        expect(mail!.to).toEqual([expected]);
        expect(mail!.toHeader).toBe(expected);
        // One plain address: nothing a mailer could read as a list, a display name or a route.
        expect(expected).toMatch(/^[^\s,;<>"()[\]\\@]+@[^\s,;<>"()[\]\\@]+$/);

        const link = linkIn(mail!);
        expect(link.searchParams.get("email")).toBe(expected);
        await client.get(link.href);
        expect(await sessionEmail(client)).toBe(expected);
      }),
      propertyOptions(60),
    );
  });
});
