/**
 * `npm run build` (and `prepare`, so installs from a git checkout build; and `prepack`, so `npm pack` does): compiles
 * into a folder of its own, then swaps it in for dist/. dist/ is never missing or half-written while
 * something runs from it (the examples and the e2e tests do), two builds at once do not mix their
 * output, and nothing a deleted source left behind is shipped. Plain JavaScript: it runs before
 * anything is built, with only TypeScript installed.
 */
import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
process.chdir(root);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const fresh = `dist.build-${process.pid}`;
const old = `dist.old-${process.pid}`;

rmSync(fresh, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", fresh], { stdio: "inherit" });
} catch {
  rmSync(fresh, { recursive: true, force: true });
  process.exit(1);
}
try {
  renameSync("dist", old);
} catch {
  // No dist/ yet: a first build.
}
renameSync(fresh, "dist");
rmSync(old, { recursive: true, force: true });
