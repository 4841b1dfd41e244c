/**
 * `npm run docs`: builds the documentation site into docs/.site/ (open docs/.site/index.html) and
 * checks its links; exits non-zero when a link or anchor does not resolve.
 */
import { fileURLToPath } from "node:url";
import { checkLinks } from "./docs/links.js";
import { buildSite } from "./docs/site.js";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const started = performance.now();
const site = await buildSite(root, `${root}/docs/.site`);
const problems = await checkLinks(site.dir);
console.log(`${site.pages.length} pages written to docs/.site/ in ${Math.round(performance.now() - started)} ms`);
for (const problem of problems) console.error(`broken link: ${problem}`);
if (problems.length) {
  console.error(`${problems.length} broken link(s)`);
  process.exitCode = 1;
}
