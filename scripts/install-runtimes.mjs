#!/usr/bin/env node
/**
 * Installs the JavaScript runtimes of the portable suite (test/portable/runtimes.json) from the npm
 * registry into a cache outside the clone, one directory per package and version
 * ($APPAUTH_RUNTIMES_DIR, default ~/.cache/appauth-runtimes/<package>-<version>), so a second run
 * installs nothing. Prints where each binary is. Node 20 is the Node running this script.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const { runtimes } = JSON.parse(readFileSync(join(root, "test/portable/runtimes.json"), "utf8"));
const cache = process.env.APPAUTH_RUNTIMES_DIR || join(homedir(), ".cache", "appauth-runtimes");

for (const [id, runtime] of Object.entries(runtimes)) {
  if (!runtime.package) continue;
  const dir = join(cache, `${runtime.package}-${runtime.version}`);
  const binary = join(dir, runtime.bin);
  if (!existsSync(binary)) {
    // Into a scratch directory first, renamed when complete: an interrupted install is never taken for a cached one.
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    execFileSync(
      "npm",
      ["install", "--prefix", scratch, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${runtime.package}@${runtime.version}`],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (!existsSync(join(scratch, runtime.bin))) throw new Error(`${id}: ${runtime.package}@${runtime.version} installed no ${runtime.bin}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  }
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim().split("\n")[0];
  console.log(`${id}: ${binary} (${version})`);
}
