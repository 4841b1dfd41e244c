/**
 * Who the client of a request is, for the per-address limits. The platform's address (a Node
 * socket's, Qwik's `clientConn.ip`, SolidStart's `clientAddress`) is the nearest hop, the only
 * address nobody in the request chose. With `trustProxy: N` the nearest N hops are the
 * application's proxies, each appending the address it saw to `X-Forwarded-For`, so the client is
 * the entry N places from the header's end; entries before it are the visitor's to invent.
 *
 * Integrations hand over the platform's address with `setClientAddress`. The server-side sign-in
 * and sign-out hand the limiter the application's request itself; the request the library builds
 * for a server-side session update carries it on (`carryClientAddress`).
 */
import { reportOnce } from "../logger.js";
import type { LoggerInstance } from "../types.js";
import type { RateLimitOptions } from "./options.js";

const PLATFORM_ADDRESS = Symbol.for("appauth.clientAddress");

/**
 * Hands the limiter the client address the platform knows for `request` (a Node socket's
 * `remoteAddress`, an edge runtime's connecting IP). Integrations call it; returns the request.
 */
export function setClientAddress<R extends Request>(request: R, address: string | null | undefined): R {
  if (address) Object.defineProperty(request, PLATFORM_ADDRESS, { value: address, configurable: true, enumerable: false });
  return request;
}

/** The address the platform gave for `request` with `setClientAddress`, if any. */
export function platformAddressOf(request: Request): string | undefined {
  const value = (request as unknown as Record<symbol, unknown>)[PLATFORM_ADDRESS];
  return typeof value === "string" ? value : undefined;
}

/** `to`, a request made on behalf of `from`, with the platform address of `from`. */
export function carryClientAddress<R extends Request>(from: Request, to: R): R {
  return setClientAddress(to, platformAddressOf(from));
}

type Parsed = { family: 4; octets: number[] } | { family: 6; groups: number[] };

function ipv4(text: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  const octets = match?.slice(1).map(Number);
  return octets?.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address, its last 32 bits possibly written as IPv4. */
function ipv6(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]{2,45}$/.test(text) || !text.includes(":")) return undefined;
  let hex = text;
  if (text.includes(".")) {
    const cut = text.lastIndexOf(":") + 1;
    const octets = ipv4(text.slice(cut));
    if (!octets) return undefined;
    hex = `${text.slice(0, cut)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = hex.split("::");
  if (halves.length > 2) return undefined;
  const part = (written: string | undefined) => (written ? written.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  // "::" stands for at least one group of zeros; without it all eight are written.
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const written = [...head, ...tail];
  if (written.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return [...head, ...Array<string>(missing).fill("0"), ...tail].map((group) => parseInt(group, 16));
}

/** An address as a proxy or a socket may write it: bracketed, with a port, with a zone. */
function parseAddress(raw: string): Parsed | undefined {
  let text = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  text = text.replace(/%[^%]*$/, "").replace(/^((?:\d{1,3}\.){3}\d{1,3}):\d{1,5}$/, "$1");
  const octets = ipv4(text);
  if (octets) return { family: 4, octets };
  const groups = ipv6(text);
  if (!groups) return undefined;
  // IPv4-mapped (::ffff:a.b.c.d): an IPv4 client of a dual-stack socket, counted as that IPv4 address.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return { family: 4, octets: [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255] };
  }
  return { family: 6, groups };
}

/**
 * The key an address is counted under: IPv4 as is (also when mapped into IPv6), IPv6 by its /64
 * prefix (one subscriber commonly holds a whole /64), anything unparsable not at all.
 */
export function clientKey(raw: string): string | undefined {
  const parsed = parseAddress(raw);
  return parsed && keyOf(parsed);
}

function keyOf(parsed: Parsed): string {
  if (parsed.family === 4) return parsed.octets.join(".");
  return `${parsed.groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** Whether `raw` is a loopback, private or link-local address: a proxy's, most likely, rather than a visitor's. */
export function isLocalAddress(raw: string): boolean {
  const parsed = parseAddress(raw);
  return parsed !== undefined && isLocal(parsed);
}

function isLocal(parsed: Parsed): boolean {
  if (parsed.family === 4) {
    const [a, b] = parsed.octets as [number, number];
    // 127/8 loopback, 10/8, 172.16/12 and 192.168/16 private, 169.254/16 link-local, 100.64/10 carrier-grade NAT.
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b < 128);
  }
  const [first] = parsed.groups as [number];
  const loopback = parsed.groups.slice(0, 7).every((group) => group === 0) && parsed.groups[7] === 1;
  // fc00::/7 unique local, fe80::/10 link-local.
  return loopback || (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** How many proxies `trustProxy` says are in front of the application (`true` is one). */
function trustedHops(trustProxy: RateLimitOptions["trustProxy"]): number {
  if (trustProxy === true) return 1;
  return typeof trustProxy === "number" ? trustProxy : 0;
}

/** The `X-Forwarded-For` entries, nearest proxy's last; several headers are one list. */
function forwardedFor(request: Request): string[] {
  const header = request.headers.get("x-forwarded-for");
  return header ? header.split(",").map((entry) => entry.trim()).filter(Boolean) : [];
}

/**
 * The reader of a configuration's client addresses, as the keys they are counted under. A custom
 * `clientAddress` decides alone. Otherwise, with N trusted proxies the client is the
 * `X-Forwarded-For` entry N places from the end. A shorter header did not come through the proxies
 * the configuration names (or names too many): none of its entries can be told from what the
 * sender wrote, so the client is the platform's address, the nearest hop, or unknown without one.
 * Its warnings are logged once per `warnings.once` (the config's logger: a lazy config makes a
 * reader per request).
 */
export function clientAddressReader(
  options: Pick<RateLimitOptions, "clientAddress" | "trustProxy">,
  logger: LoggerInstance,
  warnings: { once: object },
): (request: Request) => string | undefined {
  const custom = options.clientAddress;
  if (custom) {
    return (request) => {
      const raw = custom(request);
      return typeof raw === "string" ? clientKey(raw) : undefined;
    };
  }
  const hops = trustedHops(options.trustProxy);
  const { once } = warnings;
  return (request) => {
    const platform = platformAddressOf(request);
    if (hops === 0) {
      const parsed = platform === undefined ? undefined : parseAddress(platform);
      if (parsed && options.trustProxy === undefined && isLocal(parsed)) {
        reportOnce(once, logger.warn, {
          code: "ProxyNotTrusted",
          anchor: "ProxyNotTrusted",
          message:
            "Requests reach the application from a loopback or private address, which is usually a reverse proxy's: then every visitor shares the proxy's rate limits. Set rateLimit.trustProxy to the number of proxies that append to X-Forwarded-For, or to false when no proxy is in front.",
        });
      }
      return parsed && keyOf(parsed);
    }
    const chain = forwardedFor(request);
    if (chain.length >= hops) return clientKey(chain[chain.length - hops]!);
    reportOnce(once, logger.warn, {
      code: "ForwardedForTooShort",
      anchor: "ForwardedForTooShort",
      message: `A request's X-Forwarded-For has fewer entries than the ${hops} proxies rateLimit.trustProxy trusts, so its client was taken to be the address it came from. Check trustProxy against the proxies in front of the application, and that the application cannot be reached around them.`,
    });
    return platform === undefined ? undefined : clientKey(platform);
  };
}
