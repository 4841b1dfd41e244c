import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { decode, encode } from "../../../src/jwt/index.js";

const salt = "appauth.session-token";
const secret = ["tamper-test-secret-new", "tamper-test-secret-old"];
const RUNS = 400;

/** Characters a mutation may write: the base64url alphabet, the separator, and a few strangers. */
const character = fc.oneof(
  fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("")),
  fc.constantFrom(".", "=", "+", "/", " ", "\n", "%", "é", "\u0000", "😀"),
);

let token = "";
let oldToken = "";

beforeAll(async () => {
  token = await encode({ token: { sub: "user-1", email: "ada@example.com", role: "admin" }, secret, salt });
  // Sealed by the older secret, so mutations also run through the try-each-secret path.
  oldToken = await encode({ token: { sub: "user-2" }, secret: secret[1]!, salt });
});

async function rejects(candidate: string, original: string): Promise<boolean> {
  if (candidate === original) return true;
  return (await decode({ token: candidate, secret, salt })) === null;
}

describe("a tampered token", () => {
  it("opens before it is tampered with", async () => {
    expect(await decode({ token, secret, salt })).toMatchObject({ sub: "user-1" });
    expect(await decode({ token: oldToken, secret, salt })).toMatchObject({ sub: "user-2" });
  });

  for (const [label, original] of [["new", () => token], ["old", () => oldToken]] as const) {
    it(`is refused when any character of a ${label}-secret token is replaced`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), character, async (at, c) => {
          const t = original();
          const i = at % t.length;
          expect(await rejects(t.slice(0, i) + c + t.slice(i + 1), t)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it(`is refused when a character is inserted anywhere in a ${label}-secret token`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), character, async (at, c) => {
          const t = original();
          const i = at % (t.length + 1);
          expect(await rejects(t.slice(0, i) + c + t.slice(i), t)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it(`is refused when any character of a ${label}-secret token is deleted`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), async (at) => {
          const t = original();
          const i = at % t.length;
          expect(await rejects(t.slice(0, i) + t.slice(i + 1), t)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it("is refused when truncated at any length", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (at) => {
        expect(await rejects(token.slice(0, at % token.length), token)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("is refused when every single position is deleted, exhaustively", async () => {
    for (let i = 0; i < token.length; i++) {
      expect(await rejects(token.slice(0, i) + token.slice(i + 1), token)).toBe(true);
    }
  });

  it("is refused when the last character of any segment is nudged to a neighbouring value", async () => {
    // The last character of a base64url segment may carry unused bits; changing only those must not pass.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const parts = token.split(".");
    for (const [index, part] of parts.entries()) {
      if (!part) continue;
      const last = alphabet.indexOf(part.at(-1)!);
      for (let delta = 1; delta < 4; delta++) {
        const changed = [...parts];
        changed[index] = part.slice(0, -1) + alphabet[last ^ delta];
        expect(await rejects(changed.join("."), token)).toBe(true);
      }
    }
  });

  it("is refused when two segments swap places", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), async (i, j) => {
        const parts = token.split(".");
        [parts[i], parts[j]] = [parts[j]!, parts[i]!];
        expect(await rejects(parts.join("."), token)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("is refused when segments of two valid tokens are mixed", async () => {
    const other = await encode({ token: { sub: "attacker" }, secret, salt });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), async (fromOther) => {
        const mine = token.split(".");
        const theirs = other.split(".");
        const mixed = mine.map((part, k) => (fromOther[k] ? theirs[k]! : part)).join(".");
        const payload = await decode({ token: mixed, secret, salt });
        if (mixed === token) expect(payload?.sub).toBe("user-1");
        else if (mixed === other) expect(payload?.sub).toBe("attacker");
        else expect(payload).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});

describe("arbitrary input", () => {
  it("is refused, never thrown, for any string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 500 }), async (s) => {
        expect(await decode({ token: s, secret, salt })).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it("is refused, never thrown, for any full-Unicode string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 500 }), async (s) => {
        expect(await decode({ token: s, secret, salt })).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it("is refused, never thrown, for five base64url segments of any content", async () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{0,120}$/),
      fc.uint8Array({ maxLength: 96 }).map((b) => Buffer.from(b).toString("base64url")),
      fc.constant(token.split(".")[0]!),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 5, maxLength: 5 }), async (parts) => {
        expect(await decode({ token: parts.join("."), secret, salt })).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it("is refused, never thrown, for a header of any JSON value", async () => {
    const rest = token.split(".").slice(1).join(".");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (header) => {
        const forged = `${Buffer.from(JSON.stringify(header) ?? "").toString("base64url")}.${rest}`;
        expect(await decode({ token: forged, secret, salt })).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });
});
