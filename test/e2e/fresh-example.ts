/**
 * One demo example started for one e2e file, alone: its own secret, OP keys and SQLite file in a
 * temporary folder (demo/.data and the other files' instances are left alone), its output kept for
 * a failure's report, and a Chromium to drive it. `close()` stops all three.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import type { RunningExample, StartExampleOptions } from "../../scripts/demo-services.js";
import { CHROMIUM, CHROMIUM_ARGS } from "../helpers/chromium.js";

export interface FreshExample {
  app: RunningExample;
  browser: Browser;
  /** The lines the app printed, newest last. */
  output: string[];
  close(): Promise<void>;
}

export async function freshExample(start: (options: StartExampleOptions) => Promise<RunningExample>, name: string): Promise<FreshExample> {
  const dataDir = await mkdtemp(join(tmpdir(), `appauth-${name}-`));
  const output: string[] = [];
  const onOutput = (line: string) => void output.push(line);
  const app = await start({ port: 0, host: "localhost", secretFile: join(dataDir, "secret"), dataDir, output: "capture", onOutput });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    app,
    browser,
    output,
    close: async () => {
      await browser.close();
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
