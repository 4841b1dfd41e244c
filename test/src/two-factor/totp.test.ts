import { describe, expect, it } from "vitest";
import { decodeBase32, encodeBase32, generateTotp, generateTotpSecret, hotp, otpauthUri, verifyTotp } from "../../../src/two-factor/totp.js";

// RFC 4226 Appendix D and RFC 6238 Appendix B use the ASCII secret "12345678901234567890".
const rfcKey = new TextEncoder().encode("12345678901234567890");
const rfcSecret = encodeBase32(rfcKey);

describe("HOTP (RFC 4226)", () => {
  it("gives the ten codes of Appendix D for counters 0 to 9", async () => {
    const codes = await Promise.all(Array.from({ length: 10 }, (_, counter) => hotp(rfcKey, counter)));
    expect(codes).toEqual(["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]);
  });
});

describe("TOTP (RFC 6238)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("gives the SHA-1 code of Appendix B at %i s: %s", async (seconds, code) => {
    expect(await generateTotp(rfcSecret, seconds * 1000, { digits: 8 })).toBe(code);
    expect(await verifyTotp(rfcSecret, code, seconds * 1000, { digits: 8 })).toBe(Math.floor(seconds / 30));
  });

  it("gives six-digit codes by default, the last six of the eight", async () => {
    expect(await generateTotp(rfcSecret, 59_000)).toBe("287082");
  });

  const now = 1_800_000_015_000; // 15 s into a step
  it("accepts a code from 30 s before or after, returning the step it belongs to", async () => {
    const step = Math.floor(now / 30_000);
    expect(await verifyTotp(rfcSecret, await generateTotp(rfcSecret, now - 30_000), now)).toBe(step - 1);
    expect(await verifyTotp(rfcSecret, await generateTotp(rfcSecret, now + 30_000), now)).toBe(step + 1);
    expect(await verifyTotp(rfcSecret, await generateTotp(rfcSecret, now), now)).toBe(step);
  });

  it("refuses a code from 60 s before or after", async () => {
    expect(await verifyTotp(rfcSecret, await generateTotp(rfcSecret, now - 60_000), now)).toBeNull();
    expect(await verifyTotp(rfcSecret, await generateTotp(rfcSecret, now + 60_000), now)).toBeNull();
  });

  it("refuses what is not a code: wrong length, letters, empty, not a string", async () => {
    const code = await generateTotp(rfcSecret, now);
    for (const typed of [code.slice(1), `${code}1`, "abcdef", "", 123456 as unknown as string]) {
      expect(await verifyTotp(rfcSecret, typed, now)).toBeNull();
    }
    expect(await verifyTotp(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).not.toBeNull();
  });

  it("makes 20-byte secrets in base32 that read back", () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeBase32(secret)).toHaveLength(20);
    expect(decodeBase32(secret.toLowerCase())).toEqual(decodeBase32(secret));
    expect(decodeBase32("not base32!")).toBeNull();
    expect(encodeBase32(new TextEncoder().encode("foobar"))).toBe("MZXW6YTBOI"); // RFC 4648 §10
  });

  it("writes the otpauth URI authenticator apps read", () => {
    expect(otpauthUri({ secret: "JBSWY3DPEHPK3PXP", issuer: "Acme Co", label: "ada@example.com" })).toBe(
      "otpauth://totp/Acme%20Co:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20Co&algorithm=SHA1&digits=6&period=30",
    );
  });
});
