/**
 * Device cookies (OWASP's defence against lockout by strangers): a browser that signed in as an
 * identifier gets a long-lived HttpOnly cookie naming a random device, MACed with the secret
 * together with the provider and the identifier. While it holds one for the identifier it types,
 * its attempts are counted in a budget of its own, which no one without the cookie can spend: a
 * flood of wrong passwords from elsewhere never locks the person out of their own browser.
 */
import { toHex } from "../encoding.js";
import { nodeCrypto } from "../jwt/native.js";
import type { CookieOption, SetCookie } from "../types.js";

const encoder = new TextEncoder();

/** What the MAC binds: the namespace (this application), the provider, the identifier, the device. */
function bound(options: { namespace: string; providerId: string; identifier: string }, device: string): string {
  // NUL separates the parts: a folded identifier holds no control character, a namespace none either.
  return `appauth device\u0000${options.namespace}\u0000${options.providerId}\u0000${options.identifier}\u0000${device}`;
}

export interface DeviceKeys {
  /** How many secrets sign: the newest signs new cookies, every one is tried on a cookie read. */
  count: number;
  /** The MAC of `message` under the secret at `index`: HMAC-SHA-512 cut to 256 bits, as hex. */
  mac(message: string, index: number): string | Promise<string>;
}

/**
 * HMAC keys for the configuration's secrets, made once. On Node the MAC is one synchronous call
 * (src/jwt/native.ts): a sign-in mints a cookie, and a Web Crypto job would wait on the thread pool.
 */
export function deviceKeys(secrets: readonly string[]): DeviceKeys {
  const raw = secrets.map((secret) => encoder.encode(`appauth device cookie:${secret}`));
  const native = nodeCrypto;
  if (native) {
    // The raw key bytes, not a KeyObject: for one short message Node's HMAC takes half the time with them.
    return { count: raw.length, mac: (message, index) => native.createHmac("sha512", raw[index]!).update(message).digest().toString("hex", 0, 32) };
  }
  const imported = raw.map((bytes) => crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-512" }, false, ["sign"]));
  return {
    count: imported.length,
    mac: async (message, index) => toHex(new Uint8Array(await crypto.subtle.sign("HMAC", await imported[index]!, encoder.encode(message)), 0, 32)),
  };
}

/** Equal strings of one length, compared in time that does not depend on where they differ. */
function sameMac(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

type Binding = { namespace: string; providerId: string; identifier: string };

/** A new device cookie (`cookie`: the configuration's, from `cookies.device`) for a browser that just signed in as `identifier`. */
export function mintDeviceCookie(keys: DeviceKeys, binding: Binding, cookie: CookieOption): SetCookie | Promise<SetCookie> {
  // 122 random bits; Node serves them from a pool, where 16 fresh bytes would be a job of their own.
  const device = crypto.randomUUID();
  const mac = keys.mac(bound(binding, device), 0);
  // Synchronous where the MAC is (Node): a sign-in mints one for every browser that has none.
  const made = (value: string): SetCookie => ({ name: cookie.name, value: `${device}.${value}`, options: cookie.options });
  return typeof mac === "string" ? made(mac) : mac.then(made);
}

/** The device a cookie names, when it was minted by this application for this identifier; else none. */
export async function verifiedDevice(keys: DeviceKeys, binding: Binding, cookie: string | undefined): Promise<string | undefined> {
  if (!cookie || cookie.length > 200) return undefined;
  const [device, mac, extra] = cookie.split(".");
  if (!device || !mac || extra !== undefined || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(device) || !/^[0-9a-f]{64}$/.test(mac)) return undefined;
  const message = bound(binding, device);
  for (let index = 0; index < keys.count; index++) {
    if (sameMac(await keys.mac(message, index), mac)) return device;
  }
  return undefined;
}
