import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeBase64url, decodeInJs, encodeBase64url, encodeInJs } from "../../../src/jwt/base64url.js";

describe("base64url", () => {
  // Node's Buffer path (used where Buffer exists) and the plain loops (edge runtimes) must agree on
  // every input, bytes and verdict, or a token would open in one runtime and not the other.
  it("gives the same answer with Node's Buffer as without it", () => {
    const alphabetish = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. \n"), maxLength: 64 });
    fc.assert(
      fc.property(fc.oneof(alphabetish, fc.string({ maxLength: 40 })), (text) => {
        expect(decodeBase64url(text)).toEqual(decodeInJs(text));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(encodeBase64url(bytes)).toBe(encodeInJs(bytes));
      }),
    );
  });

  it("encodes as RFC 4648 base64url without padding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(encodeBase64url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
      }),
    );
  });

  it("decodes what it encodes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decodeBase64url(encodeBase64url(bytes))).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it("accepts only the one canonical spelling of any bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const bytes = decodeBase64url(text);
        if (bytes) expect(encodeBase64url(bytes)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses padding, standard-alphabet characters, whitespace and impossible lengths", () => {
    for (const text of ["QQ==", "a+b/", "YW Jj", "A", "AAAAA", "QR", "QUF", "é"]) {
      expect(decodeBase64url(text)).toBeNull();
    }
  });
});
