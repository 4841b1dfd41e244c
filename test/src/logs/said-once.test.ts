/**
 * Issue 26, item 6: what a newcomer's server log says. A refused password is one line that names
 * its type once and links the troubleshooting page shipped in the package; a fault said "once per
 * process" is said once even where the library is loaded several times in one process (Next.js
 * bundles it once per layer: route handler, server components, rendering, proxy); the adapters say
 * plainly that their connection string is undefined.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { postgresAdapter } from "../../../src/adapters/postgres/index.js";
import { mysqlAdapter } from "../../../src/adapters/mysql/index.js";
import { CredentialsSignin, troubleshootingUrl } from "../../../src/errors.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** Console lines of the built-in logger, as one string each. */
function consoleLines(): string[] {
  const lines: string[] = [];
  for (const level of ["warn", "error", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  }
  return lines;
}

describe("the line of a refused password", () => {
  it("names CredentialsSignin once and links the troubleshooting page in the package", async () => {
    const lines = consoleLines();
    const { consoleLogger, logAuthError } = await import("../../../src/logger.js");
    logAuthError(consoleLogger, new CredentialsSignin());
    expect(lines).toHaveLength(1);
    expect(lines[0]!.match(/CredentialsSignin/g)).toHaveLength(1);
    expect(lines[0]).toContain(`See ${troubleshootingUrl("CredentialsSignin")}`);
    expect(troubleshootingUrl("CredentialsSignin")).toBe("appauth/docs/troubleshooting.md#credentialssignin");
  });
});

describe("faults said once per process", () => {
  /** A fresh copy of the library's runtime module, as another bundle of the same process loads it. */
  async function freshCopy() {
    vi.resetModules();
    return import("../../../src/config/runtime.js");
  }
  const config = { providers: [], secret: "s".repeat(40) };

  it("says that no host is trusted once, however many copies of the library resolve a config", async () => {
    const lines = consoleLines();
    const production = { NODE_ENV: "production", AUTH_URL: "", AUTH_TRUST_HOST: "" };
    for (let copy = 0; copy < 3; copy++) (await freshCopy()).getRuntime({ ...config }, production);
    expect(lines.filter((line) => line.includes("UntrustedHost"))).toHaveLength(1);
  });

  it("warns that experimental.enableWebAuthn is on once, however many copies resolve a config", async () => {
    const lines = consoleLines();
    for (let copy = 0; copy < 3; copy++) {
      (await freshCopy()).getRuntime({ ...config, trustHost: true, experimental: { enableWebAuthn: true } }, {});
    }
    expect(lines.filter((line) => line.includes("enableWebAuthn"))).toHaveLength(1);
  });
});

describe("an adapter given an undefined connection string", () => {
  it.each([
    ["postgresAdapter", () => postgresAdapter(process.env.APPAUTH_TEST_UNSET_URL!)],
    ["mysqlAdapter", () => mysqlAdapter(process.env.APPAUTH_TEST_UNSET_URL!)],
  ])("%s says the string is undefined and how to load .env.local", (name, connect) => {
    expect(connect).toThrow(new RegExp(`^${name}: the connection string is undefined\\..*process\\.env.*--env-file=\\.env\\.local`));
  });

  it("says so for an empty one too", () => {
    expect(() => postgresAdapter("")).toThrow(/connection string is empty/);
  });
});
