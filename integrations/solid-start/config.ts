/**
 * `ReactiveAuthConfig` — the core's options with `prefix` for the base path (default `/api/auth`,
 * where the catch-all route `src/routes/api/auth/[...auth].ts` lives) — and its translation to the
 * core's input. The translation is made once per config object, so the core's per-config cache
 * (validation, bound machines) serves every request.
 */
import type { AuthConfig, AuthConfigInput, Awaitable } from "../../src/types.js";

/** Integration C's default prefix. */
export const DEFAULT_PREFIX = "/api/auth";

/**
 * The configuration of `ReactiveAuth` and `getSession`: the core's options (including `raw`) with
 * `prefix` in place of `basePath`. There is no `authorized` callback: routes are guarded by the
 * middleware's `protect` option and `requireSession` (see `index.ts`).
 */
export interface ReactiveAuthConfig extends Omit<AuthConfig, "basePath"> {
  /** The base path of the library's routes; default `/api/auth`. */
  prefix?: string;
}

/** A config, or a function of the request (absent outside a request) returning one. */
export type ReactiveAuthConfigInput = ReactiveAuthConfig | ((request: Request | undefined) => Awaitable<ReactiveAuthConfig>);

/** `/api/auth/` → `/api/auth`; a prefix must be a path. */
function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (typeof prefix !== "string" || !prefix.startsWith("/") || prefix.startsWith("//")) {
    throw new TypeError(`ReactiveAuth: \`prefix\` must be a path starting with "/"; got ${JSON.stringify(prefix)}.`);
  }
  return prefix.replace(/\/+$/, "") || "/";
}

const translated = new WeakMap<ReactiveAuthConfig, AuthConfig>();

function toAuthConfig(config: ReactiveAuthConfig): AuthConfig {
  if (config === null || typeof config !== "object") {
    throw new TypeError("ReactiveAuth: the configuration must be an object (or a function returning one).");
  }
  let core = translated.get(config);
  if (!core) {
    const { prefix, ...rest } = config;
    core = { ...rest, basePath: normalizePrefix(prefix) };
    translated.set(config, core);
  }
  return core;
}

const translatedInputs = new WeakMap<object, AuthConfigInput>();

/** The core input for `input`: the same object (or function) every time it is asked for the same input. */
export function toCoreConfig(input: ReactiveAuthConfigInput): AuthConfigInput {
  if (input === null || (typeof input !== "object" && typeof input !== "function")) {
    throw new TypeError("ReactiveAuth(config): `config` must be a configuration object or a function returning one.");
  }
  let core = translatedInputs.get(input);
  if (!core) {
    core = typeof input === "function" ? async (request) => toAuthConfig(await input(request)) : toAuthConfig(input);
    translatedInputs.set(input, core);
  }
  return core;
}
