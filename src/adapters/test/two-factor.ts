/**
 * The two-factor extension: TOTP factors (pending until confirmed, each accepted time step used once)
 * and recovery codes kept as hashes (each used once). Optional at every level: the core needs it only
 * when `twoFactor` is configured, and refuses such a configuration at start-up without it.
 */
import { describe, expect } from "vitest";
import type { StoredTotpFactor } from "../../two-factor/types.js";
import { TWO_FACTOR_METHODS } from "../../two-factor/methods.js";
import { extensionTest, type Method, type SuiteContext } from "./context.js";
import { sampleSession, unique } from "./fixtures.js";

const METHODS = TWO_FACTOR_METHODS satisfies readonly Method[];
/** The factors version (remembered browsers) is tested with the factor methods that raise it. */
const VERSION_METHODS = ["getTwoFactorVersion", ...TWO_FACTOR_METHODS] as const satisfies readonly Method[];

/** A pending TOTP factor of `userId` (its secret an opaque sealed string, as the core stores it). */
export function sampleTotpFactor(userId: string, overrides: Partial<StoredTotpFactor> = {}): StoredTotpFactor {
  return {
    id: `totp-${unique()}`,
    userId,
    type: "totp",
    createdAt: new Date(Math.floor(Date.now() / 1000) * 1000),
    label: "Phone",
    secret: `sealed.${unique()}`,
    lastUsedStep: -1,
    active: false,
    ...overrides,
  };
}

export function describeTwoFactor(suite: SuiteContext): void {
  const ctx: SuiteContext = { ...suite, extensions: suite.extensions === "off" ? "off" : "when-present" };
  const { method } = ctx;
  const test = (title: string, body: () => Promise<void>): void => extensionTest(ctx, METHODS, title, body);
  const enrolled = async (overrides: Partial<StoredTotpFactor> = {}): Promise<StoredTotpFactor> => {
    const user = await ctx.createdUser();
    return method("createTwoFactor")(sampleTotpFactor(user.id, overrides));
  };
  const race = <T>(call: () => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: 20 }, call));

  describe("second factors (extension)", () => {
    test("stores a pending factor and gives every field back, the sealed secret untouched", async () => {
      const factor = await enrolled();
      const [stored, ...rest] = await method("getTwoFactors")(factor.userId);
      expect(rest).toEqual([]);
      expect(stored).toMatchObject({ id: factor.id, userId: factor.userId, type: "totp", secret: factor.secret, lastUsedStep: -1, active: false, label: "Phone" });
      expect(stored!.createdAt).toBeInstanceOf(Date);
      expect(stored!.createdAt.getTime()).toBe(factor.createdAt.getTime());
    });

    test("lists only the user's own factors, oldest first, and none for a user without any", async () => {
      const factor = await enrolled({ createdAt: new Date(Date.now() - 60_000) });
      const later = await method("createTwoFactor")(sampleTotpFactor(factor.userId));
      await enrolled();
      expect((await method("getTwoFactors")(factor.userId)).map((f) => f.id)).toEqual([factor.id, later.id]);
      const stranger = await ctx.createdUser();
      expect(await method("getTwoFactors")(stranger.id)).toEqual([]);
    });

    test("activates a pending factor of its owner, and nobody else's", async () => {
      const factor = await enrolled();
      const stranger = await ctx.createdUser();
      expect(await method("activateTwoFactor")(stranger.id, factor.id)).toBeNull();
      expect((await method("getTwoFactors")(factor.userId))[0]!.active).toBe(false);
      expect(await method("activateTwoFactor")(factor.userId, factor.id)).toMatchObject({ id: factor.id, active: true });
      expect((await method("getTwoFactors")(factor.userId))[0]!.active).toBe(true);
      expect(await method("activateTwoFactor")(factor.userId, `totp-${unique()}`)).toBeNull();
    });

    test("deletes a factor only for its owner", async () => {
      const factor = await enrolled();
      const stranger = await ctx.createdUser();
      expect(await method("deleteTwoFactor")(stranger.id, factor.id)).toBe(false);
      expect(await method("getTwoFactors")(factor.userId)).toHaveLength(1);
      expect(await method("deleteTwoFactor")(factor.userId, factor.id)).toBe(true);
      expect(await method("getTwoFactors")(factor.userId)).toEqual([]);
      expect(await method("deleteTwoFactor")(factor.userId, factor.id)).toBe(false);
    });

    test("accepts a time step once, then only later steps, and records when", async () => {
      const factor = await enrolled();
      const use = (step: number): Promise<boolean> => method("useTotpStep")(factor.userId, factor.id, step);
      expect(await use(1000)).toBe(true);
      expect(await use(1000)).toBe(false);
      expect(await use(999)).toBe(false);
      expect(await use(1001)).toBe(true);
      const [stored] = await method("getTwoFactors")(factor.userId);
      expect(stored!.lastUsedStep).toBe(1001);
      expect(stored!.lastUsedAt).toBeInstanceOf(Date);
    });

    test("accepts no step for another user's factor or an unknown one", async () => {
      const factor = await enrolled();
      const stranger = await ctx.createdUser();
      expect(await method("useTotpStep")(stranger.id, factor.id, 5)).toBe(false);
      expect(await method("useTotpStep")(factor.userId, `totp-${unique()}`, 5)).toBe(false);
      expect((await method("getTwoFactors")(factor.userId))[0]!.lastUsedStep).toBe(-1);
    });

    test("accepts one time step for exactly one of 20 concurrent uses", async () => {
      const factor = await enrolled();
      const results = await race(() => method("useTotpStep")(factor.userId, factor.id, 2_000_000));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    test("keeps recovery codes as given, uses each once, and counts what is left", async () => {
      const user = await ctx.createdUser();
      const hashes = [`h-${unique()}`, `h-${unique()}`, `h-${unique()}`];
      await method("replaceRecoveryCodes")(user.id, hashes);
      expect(await method("countRecoveryCodes")(user.id)).toBe(3);
      expect(await method("useRecoveryCode")(user.id, hashes[1]!)).toBe(true);
      expect(await method("useRecoveryCode")(user.id, hashes[1]!)).toBe(false);
      expect(await method("countRecoveryCodes")(user.id)).toBe(2);
    });

    test("refuses a recovery code of another user, and counts none for a user without codes", async () => {
      const [owner, stranger] = [await ctx.createdUser(), await ctx.createdUser()];
      const hash = `h-${unique()}`;
      await method("replaceRecoveryCodes")(owner.id, [hash]);
      expect(await method("useRecoveryCode")(stranger.id, hash)).toBe(false);
      expect(await method("countRecoveryCodes")(stranger.id)).toBe(0);
      expect(await method("countRecoveryCodes")(owner.id)).toBe(1);
    });

    test("replaces every recovery code of the user with the new set", async () => {
      const user = await ctx.createdUser();
      const [old, fresh] = [`h-${unique()}`, `h-${unique()}`];
      await method("replaceRecoveryCodes")(user.id, [old, `h-${unique()}`]);
      await method("replaceRecoveryCodes")(user.id, [fresh]);
      expect(await method("countRecoveryCodes")(user.id)).toBe(1);
      expect(await method("useRecoveryCode")(user.id, old)).toBe(false);
      expect(await method("useRecoveryCode")(user.id, fresh)).toBe(true);
    });

    test("uses a recovery code for exactly one of 20 concurrent uses", async () => {
      const user = await ctx.createdUser();
      const hash = `h-${unique()}`;
      await method("replaceRecoveryCodes")(user.id, [hash, `h-${unique()}`]);
      const results = await race(() => method("useRecoveryCode")(user.id, hash));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await method("countRecoveryCodes")(user.id)).toBe(1);
    });

    test("forgets a deleted user's factors and recovery codes", async () => {
      const factor = await enrolled();
      await method("replaceRecoveryCodes")(factor.userId, [`h-${unique()}`]);
      await method("deleteUser")(factor.userId);
      expect(await method("getTwoFactors")(factor.userId)).toEqual([]);
      expect(await method("countRecoveryCodes")(factor.userId)).toBe(0);
    });

    // A store that keeps second factors keeps what a database session proved too: the core hands
    // `amr` and `authTime` to createSession only then, and reads them back for a recent proof.
    test("keeps what a session's sign-in proved (amr, authTime) through reads and an extension", async () => {
      const user = await ctx.createdUser();
      const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
      const session = sampleSession(user.id, { amr: ["pwd", "otp", "mfa"], authTime });
      await method("createSession")(session);
      const read = await method("getSessionAndUser")(session.sessionToken);
      expect(read?.session.amr).toEqual(["pwd", "otp", "mfa"]);
      expect(read?.session.authTime).toBeInstanceOf(Date);
      expect(read?.session.authTime?.getTime()).toBe(authTime.getTime());
      await method("updateSession")({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 86_400_000) });
      const after = await method("getSessionAndUser")(session.sessionToken);
      expect(after?.session).toMatchObject({ amr: ["pwd", "otp", "mfa"], authTime });
    });

    test("reads a session created without a proof as proving nothing", async () => {
      const user = await ctx.createdUser();
      const session = sampleSession(user.id);
      await method("createSession")(session);
      const read = await method("getSessionAndUser")(session.sessionToken);
      expect(read?.session.amr ?? null).toBeNull();
      expect(read?.session.authTime ?? null).toBeNull();
    });

    test("forgets the factors and recovery codes of a user claimed by whoever proved the address", async () => {
      const user = await ctx.createdUser({ emailVerified: null });
      await method("createTwoFactor")(sampleTotpFactor(user.id, { active: true }));
      await method("replaceRecoveryCodes")(user.id, [`h-${unique()}`]);
      const claim = ctx.adapter()?.claimUnverifiedUser;
      if (typeof claim !== "function") return;
      expect(await method("claimUnverifiedUser")(user.id, new Date())).not.toBeNull();
      expect(await method("getTwoFactors")(user.id)).toEqual([]);
      expect(await method("countRecoveryCodes")(user.id)).toBe(0);
    });
  });

  describe("factors version (extension)", () => {
    const versioned = (title: string, body: () => Promise<void>): void => extensionTest(ctx, VERSION_METHODS, title, body);
    const version = (userId: string): Promise<number> => method("getTwoFactorVersion")(userId);

    versioned("is 0 for a user whose factors never changed", async () => {
      const user = await ctx.createdUser();
      expect(await version(user.id)).toBe(0);
    });

    versioned("goes up with every change of the user's factors: enroll, confirm, remove, new recovery codes", async () => {
      const user = await ctx.createdUser();
      const seen = [await version(user.id)];
      const factor = await method("createTwoFactor")(sampleTotpFactor(user.id));
      seen.push(await version(user.id));
      await method("activateTwoFactor")(user.id, factor.id);
      seen.push(await version(user.id));
      await method("replaceRecoveryCodes")(user.id, [`h-${unique()}`]);
      seen.push(await version(user.id));
      expect(await method("deleteTwoFactor")(user.id, factor.id)).toBe(true);
      seen.push(await version(user.id));
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    });

    versioned("stays put when a code is used, when nothing is deleted, and for another user's changes", async () => {
      const user = await ctx.createdUser();
      const factor = await method("createTwoFactor")(sampleTotpFactor(user.id, { active: true }));
      await method("replaceRecoveryCodes")(user.id, ["h-one"]);
      const before = await version(user.id);
      expect(await method("useTotpStep")(user.id, factor.id, 7)).toBe(true);
      expect(await method("useRecoveryCode")(user.id, "h-one")).toBe(true);
      expect(await method("deleteTwoFactor")(user.id, "no-such-factor")).toBe(false);
      const stranger = await ctx.createdUser();
      expect(await method("deleteTwoFactor")(stranger.id, factor.id)).toBe(false);
      await method("createTwoFactor")(sampleTotpFactor(stranger.id));
      await method("replaceRecoveryCodes")(stranger.id, ["h-two"]);
      expect(await version(user.id)).toBe(before);
    });

    versioned("goes up, never back, when a claim forgets a squatter's factors", async () => {
      const user = await ctx.createdUser({ emailVerified: null });
      await method("createTwoFactor")(sampleTotpFactor(user.id, { active: true }));
      const before = await version(user.id);
      if (typeof ctx.adapter()?.claimUnverifiedUser !== "function") return;
      expect(await method("claimUnverifiedUser")(user.id, new Date())).not.toBeNull();
      expect(await version(user.id)).toBeGreaterThan(before);
    });
  });
}
