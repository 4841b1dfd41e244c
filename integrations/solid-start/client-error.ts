/**
 * What a server function throws reaches the browser as SolidStart 1.x serializes it: seroval copies
 * every own property of an `Error` into the response body, `stack` and `cause` included, in
 * production too. A wrong password must not hand the browser the server's file paths and call
 * frames, so the errors the integration's operations throw leave with a stack that is only their
 * first line and without their cause; `type`, `code` and `retryAfter` stay for client code that
 * reads them without `instanceof`.
 */
import { AuthError } from "../../src/errors.js";
import { consoleLogger } from "../../src/logger.js";
import type { AuthConfigInput } from "../../src/types.js";

/** `error`, made safe to serialize to the browser: a library error loses its frames and its cause (logged here first). */
export function withoutTrace(error: unknown, config: AuthConfigInput): unknown {
  if (!(error instanceof AuthError)) return error;
  if (error.cause !== undefined) {
    const logger = typeof config === "object" ? config.logger?.error : undefined;
    (logger ?? consoleLogger.error)(error.type, error);
    delete error.cause;
  }
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

/** Runs an operation of a server function; what it throws is thrown again without its trace. */
export async function tracelessly<T>(config: AuthConfigInput, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw withoutTrace(error, config);
  }
}
