/**
 * The demo OP's secrets, generated on first start and kept in `op-keys.json` (in the gitignored
 * demo/.data): the ID token signing key, the cookie signing keys and each client's secret. Keeping
 * them means a restart changes nothing an RP or a browser holds: the JWKS, the OP's cookies and the
 * demo app's client credentials all stay valid.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ProviderJWK } from "oidc-provider";

export interface DemoKeys {
  /** Private JWKs, the first one signs. */
  signingKeys: ProviderJWK[];
  /** Keygrip keys for the OP's cookies, the first one signs. */
  cookieKeys: string[];
  /** client_id → client_secret. */
  clientSecrets: Record<string, string>;
}

/** The stored keys, completed with whatever is missing; the file is rewritten only when something was added. */
export async function loadDemoKeys(file: string, options: { clientId: string; clientSecret?: string }): Promise<DemoKeys> {
  const stored = await readKeys(file);
  const keys: DemoKeys = {
    signingKeys: stored?.signingKeys?.length ? stored.signingKeys : [newSigningKey()],
    cookieKeys: stored?.cookieKeys?.length ? stored.cookieKeys : [randomBytes(32).toString("base64url")],
    clientSecrets: { ...stored?.clientSecrets },
  };
  keys.clientSecrets[options.clientId] =
    options.clientSecret ?? keys.clientSecrets[options.clientId] ?? randomBytes(32).toString("base64url");
  if (JSON.stringify(keys) !== JSON.stringify(stored)) await writeKeys(file, keys);
  return keys;
}

function newSigningKey(): ProviderJWK {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  return { ...jwk, kid: `demo-${randomBytes(8).toString("hex")}`, alg: "RS256", use: "sig" };
}

async function readKeys(file: string): Promise<Partial<DemoKeys> | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    return parsed && typeof parsed === "object" ? (parsed as Partial<DemoKeys>) : undefined;
  } catch (error) {
    // A missing or damaged file is replaced by fresh keys: the demo's state is disposable.
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function writeKeys(file: string, keys: DemoKeys): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Written beside the target and renamed over it, so a crash never leaves half a key behind.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  await rename(partial, file);
}
