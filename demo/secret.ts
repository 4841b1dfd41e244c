/**
 * The demo's secret, so that `npm start` needs no setup: APPAUTH_SECRET or AUTH_SECRET when set
 * (the library reads them itself, rotation list included); otherwise a random secret generated on
 * first start and kept in `demo/.data/secret` (gitignored), so sessions survive a restart.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the generated secret is kept unless told otherwise. */
export const DEFAULT_SECRET_FILE = fileURLToPath(new URL("./.data/secret", import.meta.url));

/** Shorter than this, a stored value is not a secret we wrote: it is replaced. */
const MIN_LENGTH = 32;

export type SecretSource = "env" | "file" | "generated";

export interface DemoSecret {
  /** The secret to put in the config; `undefined` when the environment provides it. */
  secret: string | undefined;
  source: SecretSource;
  /** The file the secret was read from or written to (sources `file` and `generated`). */
  file?: string;
}

/** Whether the environment names a secret the way the library reads it (an empty value does not count). */
export function environmentHasSecret(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.APPAUTH_SECRET || env.AUTH_SECRET);
}

/**
 * The secret a launcher starts an app with: the one its caller gave (source `option`), else the
 * environment's, the stored one, or a new one (see resolveDemoSecret).
 */
export async function launcherSecret(options: {
  secret?: string;
  secretFile?: string;
}): Promise<{ secret: string | undefined; source: SecretSource | "option" }> {
  if (options.secret !== undefined) return { secret: options.secret, source: "option" };
  const { secret, source } = await resolveDemoSecret(options.secretFile ? { file: options.secretFile } : {});
  return { secret, source };
}

/** The secret the demo runs with; generates and stores one on first use. */
export async function resolveDemoSecret(
  options: { env?: NodeJS.ProcessEnv; file?: string } = {},
): Promise<DemoSecret> {
  const env = options.env ?? process.env;
  if (environmentHasSecret(env)) return { secret: undefined, source: "env" };
  const file = options.file ?? DEFAULT_SECRET_FILE;
  const stored = await readStoredSecret(file);
  if (stored) return { secret: stored, source: "file", file };
  const secret = randomBytes(32).toString("base64url");
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Written beside the target and renamed over it, so a crash never leaves half a secret behind.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${secret}\n`, { mode: 0o600 });
  await rename(partial, file);
  return { secret, source: "generated", file };
}

async function readStoredSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const secret = text.trim();
  return secret.length >= MIN_LENGTH ? secret : undefined;
}
