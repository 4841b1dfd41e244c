/**
 * Debian's Chromium for browser tests (playwright-core cannot download one here): where it is, the
 * flags every test launches it with, and the rule for when it is missing — skip with a warning
 * locally, fail with CI=true.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether the browser tests of `suite` (e.g. "the fresh Next.js app e2e tests") can run. When
 * Chromium is missing this warns (locally) or registers a failing test (CI=true) and returns false.
 */
export function chromiumFor(suite: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const missing = `Chromium is not installed at ${CHROMIUM}: ${suite} need it (apt-get install chromium).`;
  if (process.env.CI === "true") {
    describe(`${suite}: environment`, () => {
      it("has Chromium installed, because CI=true does not allow skipping the browser tests", () => {
        expect.fail(missing);
      });
    });
  } else {
    console.warn(`\n⚠️  SKIPPING ${suite}. ${missing}\n`);
  }
  return false;
}

/**
 * The options of the browser suites: under CI one retry per test. A browser test on two busy cores
 * meets timing it does not control (a slow hydration, a late broadcast); a retried test is shown as
 * such in the report, and a test that fails twice fails the run.
 */
export const BROWSER_SUITE = { retry: process.env.CI === "true" ? 1 : 0 } as const;
