/**
 * The Next.js side of a configuration: `AppAuthConfig` (the core config without `raw`, plus the
 * `authorized` callback) and its translation to the core's input, with integration A's base path
 * `/api/auth`. The translation is made once per config object, so the core's per-config cache
 * (validation, bound machines) keeps working for the lazy form too.
 */
import type { NextRequest } from "next/server";
import { processEnv, urlFromEnv } from "../../src/config/env.js";
import type { AuthorizedCallback } from "../../src/server/index.js";
import type { AuthConfig, AuthConfigInput, Awaitable, CallbacksOptions } from "../../src/types.js";
import { nextServer } from "./modules.js";

/** Integration A's default base path, where the catch-all route `app/api/auth/[...appauth]` lives. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** The configuration of `AppAuth`: the core's options except `raw`, plus `callbacks.authorized`. */
export interface AppAuthConfig extends Omit<AuthConfig, "raw" | "callbacks"> {
  /** The core's callbacks, plus `authorized`, which the middleware asks whether a request may go on. */
  callbacks?: CallbacksOptions & {
    /**
     * Decides, in middleware, whether a request may go on: `true` allows; `false` or nothing sends
     * the visitor to sign in (coming back to the full URL afterwards); a `Response` answers instead
     * (an application-chosen 401, a redirect elsewhere). Not called for the library's own routes
     * and pages. A callback that throws denies.
     */
    authorized?: AuthorizedCallback<NextRequest>;
  };
}

/** `AppAuth`'s argument: a config, or a function of the request (absent outside a request) returning one. */
export type AppAuthConfigInput = AppAuthConfig | ((request: NextRequest | undefined) => Awaitable<AppAuthConfig>);

/** Whether `APPAUTH_URL`/`AUTH_URL` names a path, which the core then uses as the base path. */
function envNamesBasePath(): boolean {
  const url = urlFromEnv(processEnv());
  if (!url) return false;
  try {
    return new URL(url).pathname.replace(/\/+$/, "") !== "";
  } catch {
    return false;
  }
}

/** The request as Next's own type: the lazy config function may rely on `nextUrl`, `cookies`, ... */
async function asNextRequest(request: Request | undefined): Promise<NextRequest | undefined> {
  if (request === undefined) return request;
  const { NextRequest } = await nextServer();
  return request instanceof NextRequest ? request : new NextRequest(request);
}

/** The core input for `input`: the same object (or function) on every call, defaults applied once per config. */
export function toCoreConfig(input: AppAuthConfigInput): AuthConfigInput {
  if (input === null || (typeof input !== "object" && typeof input !== "function")) {
    throw new TypeError("AppAuth(config): `config` must be a configuration object or a function returning one.");
  }
  const defaulted = new WeakMap<AppAuthConfig, AuthConfig>();
  const withDefaults = (config: AppAuthConfig): AuthConfig => {
    if (config === null || typeof config !== "object") {
      throw new TypeError("AppAuth: the configuration must be an object (or a function returning one).");
    }
    let core = defaulted.get(config);
    if (!core) {
      core = (config.basePath !== undefined || envNamesBasePath() ? config : { ...config, basePath: DEFAULT_BASE_PATH }) as AuthConfig;
      defaulted.set(config, core);
    }
    return core;
  };
  if (typeof input === "function") return async (request) => withDefaults(await input(await asNextRequest(request)));
  return withDefaults(input);
}
