/**
 * A software passkey for tests that need real WebAuthn credentials without a browser: an ES256 key
 * pair from Web Crypto, authenticator data built byte by byte (RP ID hash, flags, signature
 * counter, attested credential data with a COSE EC2 key), `fmt: "none"` attestation, and ECDSA
 * signatures over authenticatorData || SHA-256(clientDataJSON) in DER form, as an authenticator
 * makes them (W3C WebAuthn Level 3, §6.1, §6.5, §8.7; RFC 9052/9053 for COSE; RFC 8949 for CBOR).
 *
 * Every field can be bent (origin, type, challenge, the client data after signing, the counter),
 * so the rejection tests can say exactly what they changed.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

// ---------------------------------------------------------------------------------------------
// A minimal CBOR encoder (RFC 8949 §3): unsigned and negative integers, byte and text strings,
// arrays and maps, which is all attestation objects and COSE keys use.

export type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

function head(major: number, length: number): number[] {
  const type = major << 5;
  if (length < 24) return [type | length];
  if (length < 0x100) return [type | 24, length];
  if (length < 0x10000) return [type | 25, length >> 8, length & 0xff];
  if (length < 0x100000000) return [type | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff];
  throw new RangeError("cbor: lengths and integers up to 2^32 - 1 only");
}

export function cbor(value: CborValue): Uint8Array {
  const out: number[] = [];
  const write = (v: CborValue): void => {
    if (typeof v === "number") {
      if (!Number.isInteger(v)) throw new TypeError("cbor: integers only");
      out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
    } else if (typeof v === "string") {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (v instanceof Uint8Array) {
      out.push(...head(2, v.length), ...v);
    } else if (Array.isArray(v)) {
      out.push(...head(4, v.length));
      v.forEach(write);
    } else {
      out.push(...head(5, v.size));
      for (const [key, item] of v) {
        write(key);
        write(item);
      }
    }
  };
  write(value);
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------

export const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
export const fromB64url = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64url"));

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sha256(data: Uint8Array<ArrayBuffer> | string): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** One DER INTEGER from an unsigned big-endian number: leading zeros dropped, a 0x00 added before a high bit. */
function derInteger(unsigned: Uint8Array): Uint8Array {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++;
  let body = unsigned.subarray(start);
  if (body[0]! & 0x80) body = concat(Uint8Array.of(0), body);
  return concat(Uint8Array.of(0x02, body.length), body);
}

/** Web Crypto's raw ECDSA signature (r || s) as the DER `SEQUENCE { r INTEGER, s INTEGER }` WebAuthn wants. */
export function derSignature(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  const body = concat(derInteger(raw.subarray(0, half)), derInteger(raw.subarray(half)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface ClientDataOptions {
  /** Default: the origin the authenticator was made for. */
  origin?: string;
  /** Default: `webauthn.create` to register, `webauthn.get` to authenticate. */
  type?: string;
  /** Default: the challenge of the options. */
  challenge?: string;
  /** The client data sent instead of the one signed (same challenge and origin, different bytes). */
  tamper?: (signed: Record<string, unknown>) => Record<string, unknown>;
  /** Default: user present and verified. */
  flags?: number;
}

export interface SoftAuthenticatorOptions {
  /** The page's origin, e.g. `http://localhost:3000`. */
  origin: string;
  /** Default: the origin's host name. */
  rpId?: string;
  /** "increment": +1 per use, as most authenticators; "zero": always 0, as authenticators without a counter. */
  counter?: "increment" | "zero";
}

/** A passkey in memory: one key pair, one credential id, one signature counter. */
export class SoftAuthenticator {
  counter = 0;
  /** Set by `register()`: the user handle the relying party chose. */
  userHandle?: string;

  private constructor(
    readonly options: Required<SoftAuthenticatorOptions>,
    readonly credentialId: Uint8Array,
    private readonly keys: CryptoKeyPair,
  ) {}

  /** `credentialId`: the id's bytes (default: 32 random ones), for tests that need a particular spelling. */
  static async create({ credentialId, ...options }: SoftAuthenticatorOptions & { credentialId?: Uint8Array }): Promise<SoftAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const id = credentialId ?? crypto.getRandomValues(new Uint8Array(32));
    return new SoftAuthenticator(
      { rpId: new URL(options.origin).hostname, counter: "increment", ...options },
      id,
      keys,
    );
  }

  /** The credential id as the browser and the ceremony name it: base64url. */
  get id(): string {
    return b64url(this.credentialId);
  }

  /** The credential id as the store keeps it: standard, padded base64 (the spec's and Auth.js's form). */
  get storedId(): string {
    return Buffer.from(this.credentialId).toString("base64");
  }

  /** The public key as a COSE_Key (EC2, P-256, ES256). */
  async coseKey(): Promise<Uint8Array> {
    const jwk = await crypto.subtle.exportKey("jwk", this.keys.publicKey);
    return cbor(
      new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, fromB64url(jwk.x!)],
        [-3, fromB64url(jwk.y!)],
      ]),
    );
  }

  private nextCounter(): number {
    if (this.options.counter === "increment") this.counter++;
    return this.counter;
  }

  private async authenticatorData(flags: number, attested?: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    const counter = this.nextCounter();
    const count = Uint8Array.of((counter >>> 24) & 0xff, (counter >> 16) & 0xff, (counter >> 8) & 0xff, counter & 0xff);
    return concat(await sha256(this.options.rpId), Uint8Array.of(flags), count, attested ?? new Uint8Array());
  }

  private clientData(defaults: { type: string; challenge: string }, overrides: ClientDataOptions): { signed: string; sent: string } {
    const data: Record<string, unknown> = {
      type: overrides.type ?? defaults.type,
      challenge: overrides.challenge ?? defaults.challenge,
      origin: overrides.origin ?? this.options.origin,
      crossOrigin: false,
    };
    const signed = JSON.stringify(data);
    return { signed, sent: overrides.tamper ? JSON.stringify(overrides.tamper({ ...data })) : signed };
  }

  /** Answers `navigator.credentials.create()` with these options: a RegistrationResponseJSON. */
  async register(
    options: PublicKeyCredentialCreationOptionsJSON,
    overrides: ClientDataOptions = {},
  ): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id;
    const { sent } = this.clientData({ type: "webauthn.create", challenge: options.challenge }, overrides);
    const idLength = Uint8Array.of(this.credentialId.length >> 8, this.credentialId.length & 0xff);
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, await this.coseKey());
    const authData = await this.authenticatorData(overrides.flags ?? FLAG_UP | FLAG_UV | FLAG_AT, attested);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(new TextEncoder().encode(sent)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get()` with these options: an AuthenticationResponseJSON. */
  async authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: ClientDataOptions = {},
  ): Promise<AuthenticationResponseJSON> {
    const { signed, sent } = this.clientData({ type: "webauthn.get", challenge: options.challenge }, overrides);
    const authData = await this.authenticatorData(overrides.flags ?? FLAG_UP | FLAG_UV);
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, concat(authData, await sha256(signed))),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(new TextEncoder().encode(sent)),
        authenticatorData: b64url(authData),
        signature: b64url(derSignature(raw)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
