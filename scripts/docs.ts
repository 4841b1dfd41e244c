/**
 * `npm run docs`: builds the documentation site with VitePress into docs/.site/ (serve it, e.g.
 * `npx vitepress preview docs`) and checks its links; exits non-zero when a link or anchor does not
 * resolve. `npm run docs:dev` (`--dev`) writes the generated pages and starts VitePress's dev server.
 */
import { fileURLToPath } from "node:url";
import { checkLinks } from "./docs/links.js";
import { buildSite, generateSources } from "./docs/site.js";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

if (process.argv.includes("--dev")) {
  await generateSources(root);
  const { createServer } = await import("vitepress");
  const server = await createServer(`${root}/docs`, { host: "127.0.0.1" });
  await server.listen();
  server.printUrls();
} else {
  const started = performance.now();
  const site = await buildSite(root, `${root}/docs/.site`);
  const problems = await checkLinks(site.dir);
  console.log(`${site.pages.length} pages written to docs/.site/ in ${Math.round(performance.now() - started)} ms`);
  const options = site.undescribed.filter((row) => row.option);
  for (const row of options) console.error(`option without a description: ${row.member} (${row.source})`);
  if (site.undescribed.length) console.warn(`${site.undescribed.length} API reference row(s) without a description; none is a configuration option`);
  for (const problem of problems) console.error(`broken link: ${problem}`);
  if (problems.length) console.error(`${problems.length} broken link(s)`);
  if (problems.length || options.length) process.exitCode = 1;
}
