import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CompactEncrypt, calculateJwkThumbprint, compactDecrypt } from "jose";
import { DEFAULT_MAX_AGE, decode, decodeWithSecretIndex, encode } from "../../../src/jwt/index.js";
import { clearKeyCache, keyInfo, MAX_CACHED_KEYS } from "../../../src/jwt/key.js";

const salt = "appauth.session-token";
const A = "secret-A-0123456789abcdef";
const B = "secret-B-fedcba9876543210";

const text = new TextEncoder();

function segments(token: string): string[] {
  return token.split(".");
}

function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(segments(token)[0]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

function b64u(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The key the library should derive, computed here from the documented recipe. */
async function derivedKey(secret: string, forSalt = salt): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", text.encode(secret), "HKDF", false, ["deriveBits"]);
  const params = { name: "HKDF", hash: "SHA-256", salt: text.encode(forSalt), info: text.encode(keyInfo(forSalt)) };
  return new Uint8Array(await crypto.subtle.deriveBits(params, ikm, 512));
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("encode and decode", () => {
  it("gives back the claims that were encoded", async () => {
    const token = await encode({ token: { sub: "user-1", name: "Ada", email: "ada@example.com", role: ["admin"] }, secret: A, salt });
    const payload = await decode({ token, secret: A, salt });
    expect(payload).toMatchObject({ sub: "user-1", name: "Ada", email: "ada@example.com", role: ["admin"] });
  });

  it("produces a five-part compact JWE with an empty encrypted key", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    const parts = segments(token);
    expect(parts).toHaveLength(5);
    expect(parts[1]).toBe("");
    expect(headerOf(token)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: expect.any(String) });
  });

  it("keeps no claim readable in the token itself", async () => {
    const token = await encode({ token: { email: "secret-person@example.com" }, secret: A, salt });
    const visible = segments(token)
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join("");
    expect(visible).not.toContain("secret-person");
  });

  it("sets iat to now, exp to 30 days later and a fresh jti", async () => {
    const before = now();
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    const payload = await decode({ token, secret: A, salt });
    expect(payload?.iat).toBeGreaterThanOrEqual(before);
    expect(payload?.iat).toBeLessThanOrEqual(now());
    expect(payload?.exp).toBe(payload!.iat! + DEFAULT_MAX_AGE);
    expect(DEFAULT_MAX_AGE).toBe(30 * 24 * 60 * 60);
    expect(payload?.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("replaces iat, exp and jti the caller passed in", async () => {
    const token = await encode({ token: { sub: "u", iat: 1, exp: 2, jti: "old" }, secret: A, salt, maxAge: 60 });
    const payload = await decode({ token, secret: A, salt });
    expect(payload?.jti).not.toBe("old");
    expect(payload?.exp).toBe(payload!.iat! + 60);
    expect(payload!.iat).toBeGreaterThan(1);
  });

  it("gives every token its own jti and its own ciphertext", async () => {
    const one = await encode({ token: { sub: "u" }, secret: A, salt });
    const two = await encode({ token: { sub: "u" }, secret: A, salt });
    expect(one).not.toBe(two);
    expect((await decode({ token: one, secret: A, salt }))?.jti).not.toBe((await decode({ token: two, secret: A, salt }))?.jti);
  });

  it("encodes an absent token as an empty claim set", async () => {
    const payload = await decode({ token: await encode({ secret: A, salt }), secret: A, salt });
    expect(Object.keys(payload ?? {}).sort()).toEqual(["exp", "iat", "jti"]);
  });

  it("honours maxAge", async () => {
    const token = await encode({ token: {}, secret: A, salt, maxAge: 120 });
    const payload = await decode({ token, secret: A, salt });
    expect(payload!.exp! - payload!.iat!).toBe(120);
  });

  it("opens a token until 15 seconds after it expires, then no more", async () => {
    const start = Date.now();
    const clock = vi.spyOn(Date, "now");
    clock.mockReturnValue(start);
    const token = await encode({ token: { sub: "u" }, secret: A, salt, maxAge: 60 });
    clock.mockReturnValue(start + 60_000);
    expect(await decode({ token, secret: A, salt })).not.toBeNull();
    clock.mockReturnValue(start + 70_000);
    expect(await decode({ token, secret: A, salt })).not.toBeNull();
    clock.mockReturnValue(start + 76_000);
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });

  it("refuses an expired token", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt, maxAge: -3600 });
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });

  it("returns null for a missing or empty token", async () => {
    expect(await decode({ token: undefined, secret: A, salt })).toBeNull();
    expect(await decode({ token: "", secret: A, salt })).toBeNull();
    expect(await decodeWithSecretIndex({ secret: A, salt })).toBeNull();
  });

  it("returns null for a token that is not a string", async () => {
    expect(await decode({ token: 42 as unknown as string, secret: A, salt })).toBeNull();
    expect(await decode({ token: { a: 1 } as unknown as string, secret: A, salt })).toBeNull();
  });

  it("refuses input longer than 64 KB without reading it", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    const huge = token + "A".repeat(64 * 1024);
    expect(await decode({ token: huge, secret: A, salt })).toBeNull();
  });

  it("still opens a large token within the limit", async () => {
    const token = await encode({ token: { blob: "x".repeat(20_000) }, secret: A, salt });
    expect((await decode({ token, secret: A, salt }))?.blob).toHaveLength(20_000);
  });
});

describe("arguments", () => {
  const badSecrets: unknown[] = [undefined, null, "", [], [""], ["ok", ""], [A, 3], 42, {}];

  it.each(badSecrets.map((secret) => [JSON.stringify(secret) ?? "undefined", secret]))(
    "encode throws a TypeError naming secret for %s",
    async (_label, secret) => {
      await expect(encode({ token: {}, secret: secret as string, salt })).rejects.toThrow(TypeError);
      await expect(encode({ token: {}, secret: secret as string, salt })).rejects.toThrow(/secret/);
    },
  );

  it.each(badSecrets.map((secret) => [JSON.stringify(secret) ?? "undefined", secret]))(
    "decode throws a TypeError naming secret for %s, whatever the token",
    async (_label, secret) => {
      await expect(decode({ token: "anything", secret: secret as string, salt })).rejects.toThrow(/secret/);
      await expect(decodeWithSecretIndex({ token: undefined, secret: secret as string, salt })).rejects.toThrow(TypeError);
    },
  );

  it("throws a TypeError naming salt when there is none", async () => {
    await expect(encode({ token: {}, secret: A, salt: "" })).rejects.toThrow(/salt/);
    await expect(decode({ token: "x", secret: A, salt: undefined as unknown as string })).rejects.toThrow(TypeError);
  });

  it("throws a TypeError naming token when it is not an object", async () => {
    await expect(encode({ token: "sub" as never, secret: A, salt })).rejects.toThrow(/token/);
    await expect(encode({ token: [1] as never, secret: A, salt })).rejects.toThrow(TypeError);
  });

  it("throws a TypeError naming maxAge when it is not a finite number", async () => {
    await expect(encode({ token: {}, secret: A, salt, maxAge: Number.NaN })).rejects.toThrow(/maxAge/);
    await expect(encode({ token: {}, secret: A, salt, maxAge: Infinity })).rejects.toThrow(TypeError);
  });
});

describe("secret rotation", () => {
  it("opens a token sealed with an older secret and says which one did", async () => {
    const token = await encode({ token: { sub: "u" }, secret: B, salt });
    expect(await decodeWithSecretIndex({ token, secret: [A, B], salt })).toMatchObject({ payload: { sub: "u" }, secretIndex: 1 });
    expect(await decodeWithSecretIndex({ token, secret: [B], salt })).toMatchObject({ secretIndex: 0 });
    expect(await decode({ token, secret: B, salt })).toMatchObject({ sub: "u" });
  });

  it("seals new tokens with the first secret of the list", async () => {
    const token = await encode({ token: { sub: "u" }, secret: [A, B], salt });
    expect(await decodeWithSecretIndex({ token, secret: [A, B], salt })).toMatchObject({ secretIndex: 0 });
    expect(await decode({ token, secret: [A], salt })).toMatchObject({ sub: "u" });
    expect(await decode({ token, secret: [B], salt })).toBeNull();
  });

  it("gives each secret its own kid, and a kid for A does not open with B", async () => {
    const forA = await encode({ token: {}, secret: A, salt });
    const forB = await encode({ token: {}, secret: B, salt });
    expect(headerOf(forA).kid).not.toBe(headerOf(forB).kid);
    expect(headerOf(forA).kid).toBe(headerOf(await encode({ token: {}, secret: A, salt })).kid);
    expect(await decode({ token: forA, secret: B, salt })).toBeNull();
    expect(await decode({ token: forA, secret: [B, "another-secret"], salt })).toBeNull();
  });

  it("opens a token without a kid by trying each secret in order", async () => {
    const key = await derivedKey(B);
    const token = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "u", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(key);
    expect(await decodeWithSecretIndex({ token, secret: [A, B], salt })).toMatchObject({ payload: { sub: "u" }, secretIndex: 1 });
    expect(await decode({ token, secret: [A], salt })).toBeNull();
  });

  it("falls back to each secret in order when the kid names none of them", async () => {
    const key = await derivedKey(B);
    const token = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "u", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid: "unknown-key" })
      .encrypt(key);
    expect(await decodeWithSecretIndex({ token, secret: [A, B], salt })).toMatchObject({ secretIndex: 1 });
  });

  it("does not try other secrets when the kid names one whose key fails", async () => {
    const forA = await encode({ token: {}, secret: A, salt });
    const keyB = await derivedKey(B);
    // Sealed with B's key but claiming A's kid: the named key fails, and B is not tried.
    const impostor = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "u", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid: headerOf(forA).kid as string })
      .encrypt(keyB);
    expect(await decode({ token: impostor, secret: [A, B], salt })).toBeNull();
  });
});

describe("key separation and headers", () => {
  it("does not open a token made for another cookie name", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt: "other.session-token" });
    expect(await decode({ token, secret: A, salt })).toBeNull();
    expect(await decode({ token, secret: A, salt: "other.session-token" })).not.toBeNull();
  });

  it("names keys by a kid that is the key's RFC 7638 thumbprint and not the key", async () => {
    const key = await derivedKey(A);
    const token = await encode({ token: {}, secret: A, salt });
    const kid = headerOf(token).kid as string;
    expect(kid).toBe(await calculateJwkThumbprint({ kty: "oct", k: Buffer.from(key).toString("base64url") }, "sha256"));
    expect(kid).not.toContain(Buffer.from(key).toString("base64url").slice(0, 16));
  });

  it.each([
    { alg: "none" },
    { alg: "none", enc: "A256CBC-HS512" },
    { alg: "dir", enc: "A128GCM" },
    { alg: "dir", enc: "A256GCM" },
    { alg: "A256KW", enc: "A256CBC-HS512" },
    { alg: "dir", enc: "A256CBC-HS512", zip: "DEF" },
    { alg: "dir", enc: "A256CBC-HS512", crit: ["exp"] },
    { alg: "dir", enc: "A256CBC-HS512", kid: 7 },
    ["dir", "A256CBC-HS512"],
    "dir",
  ])("refuses a token whose header is %j", async (header) => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    const forged = [b64u(header), ...segments(token).slice(1)].join(".");
    expect(await decode({ token: forged, secret: A, salt })).toBeNull();
  });

  it("refuses a foreign header before deriving any key", async () => {
    clearKeyCache();
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    expect(derive).toHaveBeenCalledTimes(1);
    clearKeyCache();
    const forged = [b64u({ alg: "none" }), ...segments(token).slice(1)].join(".");
    expect(await decode({ token: forged, secret: A, salt })).toBeNull();
    expect(await decode({ token: "a.b.c", secret: A, salt })).toBeNull();
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it("refuses an A128GCM token even when it is encrypted under a key of the right secret", async () => {
    const key = (await derivedKey(A)).slice(0, 16);
    const token = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "u", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A128GCM" })
      .encrypt(key);
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });

  it("refuses a token whose header carries members it does not know", async () => {
    const token = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "u", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", x5u: "https://attacker.example/key" })
      .encrypt(await derivedKey(A));
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });

  it.each([
    ["an array", [1, 2]],
    ["a string", "claims"],
    ["a number", 12],
    ["null", null],
    ["an object without exp", { sub: "u" }],
    ["an object whose exp is a string", { sub: "u", exp: "9999999999" }],
    ["an object not valid before next hour", { sub: "u", exp: 9_999_999_999, nbf: 9_999_999_000 }],
  ])("refuses a correctly sealed payload that is %s", async (_label, payload) => {
    const token = await new CompactEncrypt(text.encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(await derivedKey(A));
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });

  it("refuses a correctly sealed payload that is not UTF-8", async () => {
    const token = await new CompactEncrypt(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(await derivedKey(A));
    expect(await decode({ token, secret: A, salt })).toBeNull();
  });
});

describe("standard conformance", () => {
  it("writes tokens a general JOSE implementation opens with the documented key", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt });
    const { plaintext, protectedHeader } = await compactDecrypt(token, await derivedKey(A));
    expect(protectedHeader).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toMatchObject({ sub: "u" });
  });

  it("opens tokens a general JOSE implementation wrote with the documented key", async () => {
    const token = await new CompactEncrypt(text.encode(JSON.stringify({ sub: "from-jose", exp: now() + 60 })))
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(await derivedKey(A));
    expect(await decode({ token, secret: A, salt })).toEqual({ sub: "from-jose", exp: expect.any(Number) });
  });
});

describe("key cache", () => {
  beforeEach(() => {
    clearKeyCache();
  });

  it("derives a key once for many concurrent first decodes", async () => {
    const token = await encode({ token: { sub: "u" }, secret: A, salt: "cache-test" });
    clearKeyCache();
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    const results = await Promise.all(Array.from({ length: 50 }, () => decode({ token, secret: A, salt: "cache-test" })));
    expect(results.every((payload) => payload?.sub === "u")).toBe(true);
    expect(derive).toHaveBeenCalledTimes(1);
    await decode({ token, secret: A, salt: "cache-test" });
    await encode({ token: {}, secret: A, salt: "cache-test" });
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it("derives each (secret, salt) pair separately", async () => {
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    await encode({ token: {}, secret: A, salt: "one" });
    await encode({ token: {}, secret: A, salt: "two" });
    await encode({ token: {}, secret: B, salt: "one" });
    expect(derive).toHaveBeenCalledTimes(3);
  });

  it("keeps a bounded number of keys, dropping the least recently used", async () => {
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    await encode({ token: {}, secret: A, salt: "salt-0" });
    await encode({ token: {}, secret: A, salt: "salt-1" });
    for (let i = 2; i < MAX_CACHED_KEYS; i++) await encode({ token: {}, secret: A, salt: `salt-${i}` });
    await encode({ token: {}, secret: A, salt: "salt-0" }); // used again: now the most recent
    await encode({ token: {}, secret: A, salt: `salt-${MAX_CACHED_KEYS}` }); // evicts salt-1
    expect(derive).toHaveBeenCalledTimes(MAX_CACHED_KEYS + 1);
    await encode({ token: {}, secret: A, salt: "salt-0" });
    expect(derive).toHaveBeenCalledTimes(MAX_CACHED_KEYS + 1);
    await encode({ token: {}, secret: A, salt: "salt-1" });
    expect(derive).toHaveBeenCalledTimes(MAX_CACHED_KEYS + 2);
  });
});

describe("the Node fast path", () => {
  it("is used under Node (webcrypto-path.test.ts runs these suites without it)", async () => {
    const { nodeCrypto } = await import("../../../src/jwt/native.js");
    const { sessionKey } = await import("../../../src/jwt/key.js");
    const key = await sessionKey("a-secret-for-the-node-path-0123456789", "appauth.session-token");
    // Here nodeCrypto is Node's module; webcrypto-path.test.ts imports this file with it hidden.
    expect(nodeCrypto === undefined || key.native !== undefined).toBe(true);
  });
});
