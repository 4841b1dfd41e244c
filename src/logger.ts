/**
 * The logger: the configured one where it defines a level, the built-in console logger otherwise.
 * `debug` messages are dropped unless `debug: true` (and then only through the built-in logger).
 */
import { AuthError, isUserMistake, troubleshootingUrl } from "./errors.js";
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

/** An error's message with its causes' messages, in one line: what a warning says instead of a stack. */
export function oneLine(error: Error): string {
  const parts = [error.message || error.name];
  let cause = error instanceof AuthError ? error.cause?.err : (error.cause as unknown);
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    parts.push(`caused by ${cause.message || cause.name}`);
    cause = cause.cause;
  }
  return parts.join(" — ");
}

/**
 * Logs an error a request ended with, named by its `type`: a person's mistake (wrong password,
 * malformed address, unknown passkey, ...) at `warn` in one line, a fault at `error` with its cause.
 */
export function logAuthError(logger: LoggerInstance, error: AuthError): void {
  if (isUserMistake(error)) logger.warn(error.type, withoutType(error, oneLine(error)));
  else logger.error(error.type, error);
}

/**
 * The line after the code: an error without a message of its own says `<type>. See <link>`, and
 * the code already names the type (`CredentialsSignin See ...`, not `CredentialsSignin CredentialsSignin. See ...`).
 */
function withoutType(error: AuthError, line: string): string {
  const prefix = `${error.type}. `;
  return line.startsWith(prefix) ? line.slice(prefix.length) : line;
}

/**
 * Logs a configuration fault once per `key` (an object the fault belongs to: a config, a runtime),
 * however many requests run into it, with the troubleshooting link for `anchor`.
 */
const REPORTED = Symbol.for("appauth.reportedFaults");
// Held on globalThis: Next.js (and other bundlers) load the library once per layer — route handler,
// server components, server-side rendering, proxy — and a fault is still said once per process.
const reported: WeakMap<object, Set<string>> = ((globalThis as { [REPORTED]?: WeakMap<object, Set<string>> })[REPORTED] ??= new WeakMap());

/** The key of what is said once per process (the built-in logger), the same object in every copy of the library. */
const PROCESS = Symbol.for("appauth.processOnce");
export const processOnce: object = ((globalThis as { [PROCESS]?: object })[PROCESS] ??= {});
export function reportOnce(
  key: object,
  log: (code: string, ...message: unknown[]) => void,
  fault: { code: string; message: string; anchor?: string },
): boolean {
  let codes = reported.get(key);
  if (!codes) reported.set(key, (codes = new Set()));
  if (codes.has(fault.code)) return false;
  codes.add(fault.code);
  log(fault.code, `${fault.message} See ${troubleshootingUrl(fault.anchor ?? fault.code)}`);
  return true;
}
