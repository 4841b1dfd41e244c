/**
 * `npm pack` / `npm publish` around the package's manifest (issue 26): the tarball's package.json
 * carries no `prepare` script, so installing the tarball warns about no install script (npm 11
 * lists a dependency's `prepare` among the scripts a project must allow), while a git checkout
 * keeps its `prepare`, which npm runs, and only runs, when it installs appauth from git.
 *
 *   node scripts/pack-manifest.mjs strip     (prepack, after the build) package.json without `prepare`
 *   node scripts/pack-manifest.mjs restore   (postpack) package.json as it was
 *
 * The original waits in package.json.prepack; a pack that failed before `restore` is undone by the
 * next `strip` (which keeps the first saved original) or by `restore` run by hand.
 */
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const manifest = fileURLToPath(new URL("../package.json", import.meta.url));
const saved = `${manifest}.prepack`;

const command = process.argv[2];
if (command === "strip") {
  const text = await readFile(existsSync(saved) ? saved : manifest, "utf8");
  if (!existsSync(saved)) await writeFile(saved, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  await writeFile(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (command === "restore") {
  if (existsSync(saved)) await rename(saved, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
