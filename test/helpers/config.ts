/**
 * Configurations for driving `Auth` in tests: one credentials provider that knows a single user,
 * an explicit secret, a trusted host, and a logger that records instead of printing.
 */
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig, CredentialsConfig, LoggerInstance, User } from "../../src/types.js";

export const SECRET = "test-secret-3f9a1c0b7d2e4f6a8b9c0d1e2f3a4b5c";
export const ORIGIN = "http://localhost:3000";
export const BASE_URL = `${ORIGIN}/auth`;
export const SESSION_COOKIE = "appauth.session-token";
export const CSRF_COOKIE = "appauth.csrf-token";
export const CALLBACK_COOKIE = "appauth.callback-url";

export const ADA = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", image: "https://img.example/ada.png" };
export const ADA_USERNAME = "ada";
export const ADA_PASSWORD = "correct horse battery staple";

/** Checks the one known user; anything else (including inputs of the wrong type) is `null`. */
export function checkAda(credentials: Partial<Record<string, unknown>>): User | null {
  return credentials.username === ADA_USERNAME && credentials.password === ADA_PASSWORD ? { ...ADA } : null;
}

export function passwordProvider(overrides: Partial<CredentialsConfig> = {}): CredentialsConfig {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: checkAda,
    ...overrides,
  });
}

export interface LogEntry {
  level: "error" | "warn" | "debug";
  code: string;
  message: unknown[];
}

export interface RecordingLogger extends LoggerInstance {
  entries: LogEntry[];
  /** The codes logged at `level`, in order. */
  codes(level: LogEntry["level"]): string[];
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  return {
    entries,
    error: (code, ...message) => void entries.push({ level: "error", code, message }),
    warn: (code, ...message) => void entries.push({ level: "warn", code, message }),
    debug: (code, ...message) => void entries.push({ level: "debug", code, message }),
    codes: (level) => entries.filter((e) => e.level === level).map((e) => e.code),
  };
}

export type TestConfig = AuthConfig & { logger: RecordingLogger };

/** A working configuration: the password provider, an explicit secret, a trusted host, a recording logger. */
export function testConfig(overrides: Partial<AuthConfig> = {}): TestConfig {
  return {
    providers: [passwordProvider()],
    secret: SECRET,
    trustHost: true,
    ...overrides,
    logger: (overrides.logger as RecordingLogger | undefined) ?? recordingLogger(),
  } as TestConfig;
}
