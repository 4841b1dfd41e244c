/**
 * Environment defaults from Qwik City's `event.env` (an `EnvGetter`), which is where edge adapters
 * keep variables: there may be no `process.env` at all. Small and free of the engine, so the Qwik
 * entry can export it without loading the server half.
 */
import type { EnvGetter } from "@builder.io/qwik-city/middleware/request-handler";
import { setEnvDefaults as setCoreEnvDefaults, type Env } from "../../src/config/env.js";
import type { AuthConfig } from "../../src/types.js";

/** The configuration `ResumableAuth$` takes: the core's options except `raw` (no `authorized`: guards are route code). */
export type ResumableAuthConfig = Omit<AuthConfig, "raw">;

/** Qwik's `EnvGetter` as the record the core reads (`env.AUTH_SECRET`), asking the getter for each name. */
export function envRecord(env: EnvGetter): Env {
  return new Proxy({} as Env, {
    get: (_target, name) => (typeof name === "string" ? env.get(name) : undefined),
  });
}

/**
 * Applies the environment's defaults to `config` in place: the secret(s), `trustHost`, the base
 * path of `AUTH_URL`, the redirect proxy, and each OAuth provider's `AUTH_<ID>_ID`/`_SECRET`/`_ISSUER`.
 */
export function setEnvDefaults(env: EnvGetter, config: ResumableAuthConfig): void {
  setCoreEnvDefaults(envRecord(env), config as AuthConfig);
}
