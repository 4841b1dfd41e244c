import { describe, expect, it } from "vitest";
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode, recoveryCodeCandidates } from "../../../src/two-factor/recovery-codes.js";
import { openSecret, sealSecret } from "../../../src/two-factor/secret-box.js";

const [current, previous] = ["current-secret-0123456789abcdef", "previous-secret-0123456789abcdef"];

describe("the sealed TOTP secret", () => {
  it("opens with the secret that sealed it, and never shows the TOTP secret in what is stored", async () => {
    const sealed = await sealSecret("JBSWY3DPEHPK3PXP", current);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(await openSecret(sealed, current)).toBe("JBSWY3DPEHPK3PXP");
  });

  it("still opens after a rotation puts a new secret first, and new seals use the new one", async () => {
    const old = await sealSecret("JBSWY3DPEHPK3PXP", [previous]);
    expect(await openSecret(old, [current, previous])).toBe("JBSWY3DPEHPK3PXP");
    const fresh = await sealSecret("JBSWY3DPEHPK3PXP", [current, previous]);
    expect(await openSecret(fresh, [current])).toBe("JBSWY3DPEHPK3PXP");
    expect(await openSecret(fresh, [previous])).toBeNull();
  });

  it("opens nothing with another secret, nor tampered or foreign text", async () => {
    const sealed = await sealSecret("JBSWY3DPEHPK3PXP", current);
    expect(await openSecret(sealed, "someone-else's-secret")).toBeNull();
    expect(await openSecret(`${sealed.slice(0, -4)}AAAA`, current)).toBeNull();
    expect(await openSecret("not a jwe", current)).toBeNull();
  });
});

describe("recovery codes", () => {
  it("are ten by default, xxxxx-xxxxx from an alphabet without look-alikes, all different", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-tv-z]{5}-[2-9a-hjkmnp-tv-z]{5}$/);
    expect(new Set(codes).size).toBe(10);
    expect(generateRecoveryCodes(3)).toHaveLength(3);
  });

  it("hash the same whatever the case, dashes or spaces the person typed", async () => {
    const [code] = generateRecoveryCodes(1);
    const stored = await hashRecoveryCode(code!, current);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(code!.replace("-", ""));
    expect(await hashRecoveryCode(` ${code!.toUpperCase().replace("-", "")} `, current)).toBe(stored);
    expect(await hashRecoveryCode(code!, previous)).not.toBe(stored);
  });

  it("refuse to hash what cannot be a code", async () => {
    expect(normalizeRecoveryCode("abcde-fghi")).toBeNull();
    expect(normalizeRecoveryCode("0oo11-lliii")).toBeNull();
    expect(await hashRecoveryCode("", current)).toBeNull();
  });

  it("match under every configured secret during a rotation, the current one first", async () => {
    const [code] = generateRecoveryCodes(1);
    const candidates = await recoveryCodeCandidates(code!, [current, previous]);
    expect(candidates).toEqual([await hashRecoveryCode(code!, current), await hashRecoveryCode(code!, previous)]);
  });
});
