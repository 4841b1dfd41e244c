/**
 * What the server log says about a request that went wrong: a person's mistake is one warning line
 * named by the error's type, with no stack; a fault of the server is an error with its cause. Names
 * come from the type, so a minified build (class names renamed) still says what happened.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import type { AuthError} from "../../../src/errors.js";
import { CredentialsSignin, InvalidConfiguration, TROUBLESHOOTING_URL } from "../../../src/errors.js";
import { consoleLogger, logAuthError } from "../../../src/logger.js";
import { Email } from "../../../src/providers/email.js";
import { ADA_PASSWORD, ADA_USERNAME, passwordProvider, recordingLogger, testConfig, type LogEntry } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

/** Whether anything in a log entry carries a stack trace (an Error object, or text that looks like one). */
function carriesStack(entry: LogEntry): boolean {
  return entry.message.some((m) => m instanceof Error || /\n\s+at /.test(String(m)));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the log of a person's mistakes", () => {
  it("says a wrong password once, as a warning named CredentialsSignin, without a stack", async () => {
    const config = testConfig();
    await new TestClient(config).signIn(ADA_USERNAME, "wrong password");
    expect(config.logger.codes("error")).toEqual([]);
    const warnings = config.logger.entries.filter((e) => e.level === "warn");
    expect(warnings.map((e) => e.code)).toEqual(["CredentialsSignin"]);
    expect(warnings.some(carriesStack)).toBe(false);
  });

  it("says a malformed email address as a warning named EmailSignInError, and sends nothing", async () => {
    const sent = vi.fn(async () => {});
    const config = testConfig({ adapter: MemoryAdapter(), providers: [Email({ sendVerificationRequest: sent })] });
    const client = new TestClient(config);
    await client.post("/signin/email", { csrfToken: await client.csrf(), email: "not an address" });
    expect(sent).not.toHaveBeenCalled();
    expect(config.logger.codes("error")).toEqual([]);
    const [warning] = config.logger.entries.filter((e) => e.level === "warn");
    expect(warning?.code).toBe("EmailSignInError");
    expect(carriesStack(warning!)).toBe(false);
  });

  it("says a post without its CSRF token as a warning named MissingCSRF", async () => {
    const config = testConfig();
    await new TestClient(config).post("/callback/credentials", { username: ADA_USERNAME, password: ADA_PASSWORD });
    expect(config.logger.codes("error")).toEqual([]);
    expect(config.logger.codes("warn")).toEqual(["MissingCSRF"]);
  });
});

describe("the log of a server's fault", () => {
  it("says an authorize() that throws as an error, with the thrown error as its cause", async () => {
    const broken = new Error("database is down");
    const config = testConfig({
      providers: [
        passwordProvider({
          authorize: () => {
            throw broken;
          },
        }),
      ],
    });
    await new TestClient(config).signIn(ADA_USERNAME, ADA_PASSWORD);
    const [entry] = config.logger.entries.filter((e) => e.level === "error");
    expect(entry?.code).toBe("CallbackRouteError");
    expect((entry?.message[0] as AuthError).cause?.err).toBe(broken);
    expect(config.logger.codes("warn")).toEqual([]);
  });
});

describe("names and links in messages", () => {
  it("names an error by its type even when a minifier renamed its class", () => {
    // What a minifier makes of `class LockedAccount extends CredentialsSignin`.
    const K = class extends CredentialsSignin {};
    const error = new K();
    expect(error.name).toBe("CredentialsSignin");
    expect(String(error)).toMatch(/^CredentialsSignin: /);
  });

  it("links an error without a message to its troubleshooting section, not to documentation that does not exist", () => {
    expect(new InvalidConfiguration().message).toBe(`Configuration. See ${TROUBLESHOOTING_URL}#configuration`);
    expect(new CredentialsSignin().message).toContain("troubleshooting.md#credentialssignin");
    expect(new CredentialsSignin().message).not.toContain("appauth documentation");
  });

  it("prints the type, never a renamed class, through the built-in console logger", () => {
    const lines: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    const K = class extends CredentialsSignin {};
    logAuthError(consoleLogger, new K("wrong password for ada"));
    logAuthError(consoleLogger, new (class extends InvalidConfiguration {})("no adapter"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/\[appauth\]\[warn\].* CredentialsSignin wrong password for ada$/);
    expect(lines[1]).toMatch(/\[appauth\]\[error\].* Configuration Configuration: no adapter/);
  });

  it("hands a custom logger the same levels", () => {
    const logger = recordingLogger();
    logAuthError(logger, new CredentialsSignin("wrong password"));
    logAuthError(logger, new InvalidConfiguration("no adapter"));
    expect(logger.entries.map((e) => [e.level, e.code])).toEqual([
      ["warn", "CredentialsSignin"],
      ["error", "Configuration"],
    ]);
  });
});
