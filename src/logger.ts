/**
 * The logger: the configured one where it defines a level, the built-in console logger otherwise.
 * `debug` messages are dropped unless `debug: true` (and then only through the built-in logger).
 */
import { AuthError } from "./errors.js";
import type { LoggerInstance } from "./types.js";

const RED = "\x1b[31m";
const YELLOW = "\x1b[33m";
const GREY = "\x1b[90m";
const RESET = "\x1b[0m";

function describe(error: unknown): unknown[] {
  if (!(error instanceof Error)) return [error];
  const lines: unknown[] = [error];
  let cause = error instanceof AuthError ? error.cause?.err : (error.cause as unknown);
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    lines.push(`${GREY}caused by${RESET}`, cause);
    cause = cause.cause;
  }
  return lines;
}

export const consoleLogger: LoggerInstance = {
  error(code, ...message) {
    console.error(`${RED}[appauth][error]${RESET} ${code}`, ...message.flatMap(describe));
  },
  warn(code, ...message) {
    console.warn(`${YELLOW}[appauth][warn]${RESET} ${code}`, ...message);
  },
  debug(code, ...message) {
    console.log(`${GREY}[appauth][debug]${RESET} ${code}`, ...message);
  },
};

/** The effective logger for a configuration. */
export function createLogger(custom: Partial<LoggerInstance> | undefined, debug: boolean): LoggerInstance {
  const noop = () => {};
  return {
    error: custom?.error?.bind(custom) ?? consoleLogger.error,
    warn: custom?.warn?.bind(custom) ?? consoleLogger.warn,
    debug: custom?.debug?.bind(custom) ?? (debug ? consoleLogger.debug : noop),
  };
}
