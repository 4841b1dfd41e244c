/**
 * Device cookies (OWASP's defence against lockout by strangers): a browser that signed in as an
 * identifier gets a long-lived HttpOnly cookie naming a random device, MACed with the secret
 * together with the provider and the identifier. While it holds one for the identifier it types,
 * its attempts are counted in a budget of its own, which no one without the cookie can spend: a
 * flood of wrong passwords from elsewhere never locks the person out of their own browser.
 */
import { toHex } from "../encoding.js";
import type { SetCookie } from "../types.js";

const encoder = new TextEncoder();

/** A year: the browser keeps its own budget as long as people keep using it. */
const DEVICE_MAX_AGE = 365 * 24 * 60 * 60;

export function deviceCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}appauth.device`;
}

/** What the MAC binds: the namespace (this application), the provider, the identifier, the device. */
function bound(options: { namespace: string; providerId: string; identifier: string }, device: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify(["appauth device", options.namespace, options.providerId, options.identifier, device]));
}

export interface DeviceKeys {
  /** The key that signs new cookies (the newest secret's) first, then the older ones. */
  keys(): Promise<CryptoKey[]>;
}

/** HMAC keys for the configuration's secrets, imported once. */
export function deviceKeys(secrets: readonly string[]): DeviceKeys {
  let imported: Promise<CryptoKey[]> | undefined;
  return {
    keys: () =>
      (imported ??= Promise.all(
        secrets.map((secret) =>
          crypto.subtle.importKey("raw", encoder.encode(`appauth device cookie:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
        ),
      )),
  };
}

type Binding = { namespace: string; providerId: string; identifier: string };

/** A new device cookie for a browser that just signed in as `identifier`. */
export async function mintDeviceCookie(keys: DeviceKeys, binding: Binding, options: { secure: boolean }): Promise<SetCookie> {
  const device = toHex(crypto.getRandomValues(new Uint8Array(16)));
  const [key] = await keys.keys();
  const mac = toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key!, bound(binding, device))));
  return {
    name: deviceCookieName(options.secure),
    value: `${device}.${mac}`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: options.secure, maxAge: DEVICE_MAX_AGE },
  };
}

/** The device a cookie names, when it was minted by this application for this identifier; else none. */
export async function verifiedDevice(keys: DeviceKeys, binding: Binding, cookie: string | undefined): Promise<string | undefined> {
  if (!cookie || cookie.length > 200) return undefined;
  const [device, mac, extra] = cookie.split(".");
  if (!device || !mac || extra !== undefined || !/^[0-9a-f]{32}$/.test(device) || !/^[0-9a-f]{64}$/.test(mac)) return undefined;
  const signature: Uint8Array<ArrayBuffer> = Uint8Array.from(mac.match(/../g)!, (pair) => parseInt(pair, 16));
  for (const key of await keys.keys()) {
    if (await crypto.subtle.verify("HMAC", key, signature, bound(binding, device))) return device;
  }
  return undefined;
}
