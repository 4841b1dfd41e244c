import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeBase64url, encodeBase64url } from "../../../src/jwt/base64url.js";

describe("base64url", () => {
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
