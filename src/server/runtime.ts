/**
 * The runtime of a config input for server-side operations, without importing the full request
 * handler: a middleware that only reads sessions must not pull every sign-in flow into its bundle
 * (on an edge runtime some of their dependencies cannot even load).
 */
import { getRuntime, type Runtime } from "../config/runtime.js";
import { processEnv } from "../config/env.js";
import type { AuthConfig, AuthConfigInput } from "../types.js";

/** Resolves a config input (object, or function of the request) to its cached runtime; throws for a bad config. */
export async function runtimeOf(request: Request | undefined, input: AuthConfigInput): Promise<Runtime> {
  return (await resolvedConfig(request, input)).rt;
}

/**
 * The config a lazy input gives for `request` (the object itself otherwise), and its runtime. An
 * operation that makes several internal calls passes `config` on to them, so a lazy config runs
 * once per operation.
 */
export async function resolvedConfig(request: Request | undefined, input: AuthConfigInput): Promise<{ config: AuthConfig; rt: Runtime }> {
  const config: AuthConfig = typeof input === "function" ? await input(request) : input;
  return { config, rt: getRuntime(config, processEnv()) };
}
