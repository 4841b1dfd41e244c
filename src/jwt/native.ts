/**
 * Node's synchronous crypto, where the runtime hands it out without a static import
 * (`process.getBuiltinModule`, Node >= 20.16). Opening a session token with it costs two short
 * synchronous calls instead of two Web Crypto jobs queued on the thread pool — the largest and
 * most load-sensitive part of reading a session. Edge runtimes get `undefined` and use Web Crypto.
 */

interface Streamed {
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}

/** A Node `Buffer`, as far as this library reads one: bytes that can also be written as hex. */
type NodeBytes = Uint8Array & { toString(encoding: "hex", start?: number, end?: number): string };

/** The few members of `node:crypto` this library uses, typed structurally (no Node types in core). */
export interface NodeCrypto {
  createSecretKey(key: Uint8Array): unknown;
  createHmac(algorithm: "sha512", key: unknown): { update(data: Uint8Array | string): { digest(): NodeBytes } };
  createHash(algorithm: "sha256"): { update(data: string): { digest(encoding: "hex"): string } };
  createCipheriv(algorithm: "aes-256-cbc", key: unknown, iv: Uint8Array): Streamed;
  createDecipheriv(algorithm: "aes-256-cbc", key: unknown, iv: Uint8Array): Streamed;
}

function load(): NodeCrypto | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
    return mod && typeof mod.createHmac === "function" && typeof mod.createDecipheriv === "function" && typeof mod.createHash === "function"
      ? (mod as NodeCrypto)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Node's crypto module, or undefined on runtimes without it. */
export const nodeCrypto: NodeCrypto | undefined = load();
