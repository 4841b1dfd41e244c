import { describe, expect, it } from "vitest";
import { recentSecondFactor } from "../../../src/two-factor/recent.js";

const now = Date.UTC(2026, 10, 29, 8, 0, 0);
const secondsAgo = (s: number): number => Math.floor((now - s * 1000) / 1000);

describe("a recent second factor", () => {
  it("is one a JWT says was proved (amr otp or mfa) within maxAge seconds", () => {
    expect(recentSecondFactor({ amr: ["pwd", "otp"], auth_time: secondsAgo(60) }, 300, { now })).toBe(true);
    expect(recentSecondFactor({ amr: ["hwk", "user", "mfa"], auth_time: secondsAgo(299) }, 300, { now })).toBe(true);
  });

  it("is one a database session records with its authTime", () => {
    expect(recentSecondFactor({ amr: ["pwd", "otp"], authTime: new Date(now - 10_000) }, 300, { now })).toBe(true);
  });

  it("is not a first factor alone, however recent", () => {
    expect(recentSecondFactor({ amr: ["pwd"], auth_time: secondsAgo(1) }, 300, { now })).toBe(false);
    expect(recentSecondFactor({ amr: ["hwk"], auth_time: secondsAgo(1) }, 300, { now })).toBe(false);
  });

  it("is not a proof older than maxAge, undated, dated in the future, or from no session", () => {
    expect(recentSecondFactor({ amr: ["otp"], auth_time: secondsAgo(301) }, 300, { now })).toBe(false);
    expect(recentSecondFactor({ amr: ["otp"] }, 300, { now })).toBe(false);
    expect(recentSecondFactor({ amr: ["otp"], auth_time: secondsAgo(-3600) }, 300, { now })).toBe(false);
    expect(recentSecondFactor({ amr: "otp", auth_time: secondsAgo(1) }, 300, { now })).toBe(false);
    expect(recentSecondFactor(null, 300, { now })).toBe(false);
  });
});
