/** How a client address becomes the key the limiter counts under, and how identifiers are folded. */
import { describe, expect, it } from "vitest";
import { clientKey, isLocalAddress, setClientAddress } from "../../../src/rate-limit/client-address.js";
import { createLimiter, normalizeIdentifier } from "../../../src/rate-limit/limiter.js";
import type { LoggerInstance } from "../../../src/types.js";

/** A logger that keeps its warnings' codes. */
function recordingLogger(): LoggerInstance & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, error: () => {}, debug: () => {}, warn: (code) => void warnings.push(code) };
}

const request = (xff?: string) => new Request("http://app.example/auth/csrf", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });

describe("client addresses", () => {
  it("keeps IPv4 as is, also when mapped into IPv6 or followed by a port", () => {
    expect(clientKey("198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey(" 198.51.100.7:54321 ")).toBe("198.51.100.7");
  });

  it("counts every IPv4-mapped IPv6 spelling as its own IPv4 address, never as one shared /64", () => {
    // How URL parsers and some proxies write ::ffff:198.51.100.7 and ::ffff:203.0.113.9.
    for (const written of ["::ffff:c633:6407", "::FFFF:C633:6407", "0:0:0:0:0:ffff:c633:6407", "[::ffff:c633:6407]:443", "0:0:0:0:0:ffff:198.51.100.7"]) {
      expect(clientKey(written)).toBe("198.51.100.7");
    }
    expect(clientKey("::ffff:cb00:7109")).toBe("203.0.113.9");
    expect(clientKey("::ffff:c633:6407")).not.toBe(clientKey("::ffff:cb00:7109"));
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
    for (const junk of ["", "unknown", "localhost", "1.2.3", "256.1.1.1", "2001:db8::1::2", "1:2:3:4:5:6:7::8", "::ffff:1.2.3", "<script>", "a".repeat(64)]) {
      expect(clientKey(junk)).toBeUndefined();
    }
  });

  it("takes the platform's address without trustProxy, X-Forwarded-For only from as many proxies as trusted", () => {
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

  it("with trustProxy reads the chain from the platform's address, the nearest proxy, back to the client", () => {
    const one = createLimiter({ providers: [], rateLimit: { trustProxy: true } })!;
    // nginx on 10.0.0.2 appended the visitor it saw; the socket's address is nginx's.
    expect(one.address(setClientAddress(request("6.6.6.6, 203.0.113.1"), "10.0.0.2"))).toBe("203.0.113.1");
    expect(one.address(setClientAddress(request("203.0.113.5"), "::ffff:10.0.0.2"))).toBe("203.0.113.5");
    const two = createLimiter({ providers: [], rateLimit: { trustProxy: 2 } })!;
    expect(two.address(setClientAddress(request("6.6.6.6, 203.0.113.1, 10.0.0.3"), "10.0.0.2"))).toBe("203.0.113.1");
  });

  it("with fewer X-Forwarded-For entries than trusted proxies takes none of them: the client is the platform's address, or unknown", () => {
    const logger = recordingLogger();
    const two = createLimiter({ providers: [], logger, rateLimit: { trustProxy: 2 } }, logger)!;
    // Whoever reached the app around the outer proxy wrote that entry themselves.
    expect(two.address(setClientAddress(request("6.6.6.6"), "198.51.100.2"))).toBe("198.51.100.2");
    expect(two.address(setClientAddress(request(), "198.51.100.2"))).toBe("198.51.100.2");
    expect(two.address(request("6.6.6.6"))).toBeUndefined();
    expect(logger.warnings).toEqual(["ForwardedForTooShort"]);
  });

  it("warns once when a loopback or private platform address is taken as the client without trustProxy, and not when trustProxy is false", () => {
    const logger = recordingLogger();
    // A lazy config makes a configuration (and a limiter) per request: still one warning for its logger.
    for (const proxy of ["127.0.0.1", "::ffff:127.0.0.1", "10.1.2.3", "::1"]) {
      createLimiter({ providers: [], logger }, logger)!.address(setClientAddress(request(), proxy));
    }
    expect(logger.warnings).toEqual(["ProxyNotTrusted"]);

    const quiet = recordingLogger();
    createLimiter({ providers: [], logger: quiet }, quiet)!.address(setClientAddress(request(), "203.0.113.1"));
    createLimiter({ providers: [], logger: quiet, rateLimit: { trustProxy: false } }, quiet)!.address(setClientAddress(request(), "127.0.0.1"));
    expect(quiet.warnings).toEqual([]);
  });

  it("tells loopback, private and link-local addresses from public ones", () => {
    for (const local of ["127.0.0.1", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.0.1", "100.64.0.1", "::1", "::ffff:127.0.0.1", "fd00::1", "fe80::1%eth0"]) {
      expect(isLocalAddress(local), local).toBe(true);
    }
    for (const remote of ["203.0.113.1", "172.32.0.1", "100.128.0.1", "2001:db8::1", "::ffff:203.0.113.1", "unknown"]) {
      expect(isLocalAddress(remote), remote).toBe(false);
    }
  });
});

describe("identifiers", () => {
  it("fold case, whitespace and Unicode compatibility forms into one", () => {
    const folded = ["Ada Lovelace", "  ada   lovelace ", "ＡＤＡ　Lovelace", "ada\tLOVELACE"].map(normalizeIdentifier);
    expect(new Set(folded)).toEqual(new Set(["ada lovelace"]));
  });
});
