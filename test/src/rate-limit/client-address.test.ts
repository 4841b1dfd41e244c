/** How a client address becomes the key the limiter counts under, and how identifiers are folded. */
import { describe, expect, it } from "vitest";
import { clientKey, createLimiter, normalizeIdentifier, setClientAddress } from "../../../src/rate-limit/limiter.js";

describe("client addresses", () => {
  it("keeps IPv4 as is, also when mapped into IPv6 or followed by a port", () => {
    expect(clientKey("198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey(" 198.51.100.7:54321 ")).toBe("198.51.100.7");
  });

  it("counts IPv6 by its /64, however it is written", () => {
    const key = clientKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe(key);
    expect(clientKey("[2001:db8:1:2::9]:443")).toBe(key);
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("2001:db8:1:3::1")).not.toBe(key);
  });

  it("refuses what is no address", () => {
    for (const junk of ["", "unknown", "localhost", "1.2.3", "2001:db8::1::2", "<script>", "a".repeat(64)]) expect(clientKey(junk)).toBeUndefined();
  });

  it("takes the platform's address first, X-Forwarded-For only from as many proxies as trusted", () => {
    const request = (xff: string) => new Request("http://app.example/auth/csrf", { headers: { "x-forwarded-for": xff } });
    const none = createLimiter({ providers: [] })!;
    expect(none.address(request("203.0.113.1"))).toBeUndefined();
    expect(none.address(setClientAddress(request("203.0.113.1"), "198.51.100.2"))).toBe("198.51.100.2");
    const one = createLimiter({ providers: [], rateLimit: { trustProxy: true } })!;
    // A visitor can put anything at the start; the nearest proxy appends what it saw.
    expect(one.address(request("6.6.6.6, 203.0.113.1"))).toBe("203.0.113.1");
    const two = createLimiter({ providers: [], rateLimit: { trustProxy: 2 } })!;
    expect(two.address(request("6.6.6.6, 203.0.113.1, 10.0.0.2"))).toBe("203.0.113.1");
    expect(createLimiter({ providers: [], rateLimit: false })).toBeUndefined();
  });
});

describe("identifiers", () => {
  it("fold case, whitespace and Unicode compatibility forms into one", () => {
    const folded = ["Ada Lovelace", "  ada   lovelace ", "ＡＤＡ　Lovelace", "ada\tLOVELACE"].map(normalizeIdentifier);
    expect(new Set(folded)).toEqual(new Set(["ada lovelace"]));
  });
});
