/**
 * The documentation site in docs/.site, as `npm run docs` builds it with VitePress (built here unless
 * the one there was built from the repository as it is now): every link and anchor resolves, the
 * generated parts cover what the code has (every catalog provider, every error type, every
 * configuration option, every machine, every public export, a description for every option), and in
 * Chromium, at desktop and phone widths, search, tabs, copy buttons, the menus and the diagram viewer
 * work and no page scrolls sideways.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allMachines } from "../../machines/index.js";
import { catalog } from "../../src/providers/catalog/index.js";
import { envProviderKey } from "../../src/config/env.js";
import { CONFIG_OPTIONS } from "../../src/config/schema.js";
import * as errors from "../../src/errors.js";
import { apiPath, entryPoints, type Undescribed } from "../../scripts/docs/api.js";
import { checkLinks, indexSite } from "../../scripts/docs/links.js";
import { withPackageManagerTabs } from "../../scripts/docs/tabs.js";
import { buildSite, generateSources, isSiteCurrent, siteDigest } from "../../scripts/docs/site.js";
import { browserChecks } from "./docs-browser.js";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const dir = `${root}/docs/.site`;

/** The site, built once for this file (unless the one in docs/.site is current), and its rows without a description. */
let built: Promise<{ undescribed: Undescribed[] }> | undefined;
function site(): Promise<{ undescribed: Undescribed[] }> {
  built ??= (async () => {
    if (await isSiteCurrent(root, dir)) {
      // The pages are current; the generated sources (for the descriptions) are cheap to remake.
      return generateSources(root);
    }
    return buildSite(root, dir);
  })();
  return built;
}

describe("the docs site", () => {
  let page: (path: string) => Promise<string>;
  let ids: (path: string) => Set<string>;
  let undescribed: Undescribed[];

  beforeAll(async () => {
    ({ undescribed } = await site());
    const index = await indexSite(dir);
    page = (path) => readFile(`${dir}/${path}`, "utf8");
    ids = (path) => index.ids.get(path) ?? new Set();
  }, 600_000);

  it("has no link to a missing page or anchor, and no external link that is not https", async () => {
    expect(await checkLinks(dir)).toEqual([]);
  });

  it("has a page for every catalog provider with its environment variables and callback URL", async () => {
    for (const [module, factory] of Object.entries(catalog)) {
      // The page is the module's; the variables and callback are the provider id's (Auth.js's: ory-hydra → hydra).
      const html = await page(`providers/${module}.html`);
      expect(html, module).toContain('class="vp-doc');
      const id = (factory as () => { id: string })().id;
      const key = envProviderKey(id);
      for (const name of [`AUTH_${key}_ID`, `AUTH_${key}_SECRET`, `AUTH_${key}_ISSUER`]) expect(html, `${id}: ${name}`).toContain(name);
      expect(html, id).toContain(`https://app.example.com/api/auth/callback/${id}`);
    }
  });

  it("has a troubleshooting section for every error type and every error class", async () => {
    const source = await readFile(`${root}/src/errors.ts`, "utf8");
    const union = /export type ErrorType =([^;]+);/.exec(source)?.[1] ?? "";
    const types = [...union.matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]!);
    expect(types.length).toBeGreaterThan(20);
    const classes = Object.entries(errors).filter(
      ([, value]) => typeof value === "function" && (value === errors.AuthError || value.prototype instanceof errors.AuthError),
    ) as [string, typeof errors.AuthError][];
    expect(classes.length).toBeGreaterThan(20);
    const anchors = ids("troubleshooting.html");
    const wanted = [...types, ...classes.map(([name]) => name), ...classes.map(([, cls]) => cls.type)].map((t) => t.toLowerCase());
    expect([...new Set(wanted)].filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });

  it("has the troubleshooting section every message of the library links to", async () => {
    // Messages link with troubleshootingUrl("<Anchor>") or an `anchor:` beside a fault's code.
    const sources = [] as string[];
    for (const dir of ["src", "integrations"]) {
      for (const entry of await readdir(`${root}/${dir}`, { recursive: true })) {
        if (entry.endsWith(".ts")) sources.push(await readFile(`${root}/${dir}/${entry}`, "utf8"));
      }
    }
    const named = sources.flatMap((source) => [...source.matchAll(/troubleshootingUrl\("([A-Za-z]+)"\)|anchor: "([A-Z][A-Za-z]+)"/g)].map((m) => (m[1] ?? m[2])!));
    expect(named.length).toBeGreaterThan(3);
    const anchors = ids("troubleshooting.html");
    expect([...new Set(named.map((n) => n.toLowerCase()))].filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });

  it("names every top-level configuration option in the troubleshooting page", async () => {
    const html = await page("troubleshooting.html");
    const options = CONFIG_OPTIONS;
    expect(options.filter((option) => !html.includes(`<code>${option}</code>`))).toEqual([]);
  });

  it("has a page for every machine that shows the diagram npm run visualize drew", async () => {
    for (const name of Object.keys(allMachines)) {
      expect(await page(`machines/${name}.html`)).toContain(`src="/machines/${name}.svg"`);
      expect(await page(`machines/${name}.svg`)).toBe(await readFile(`${root}/visualizations/${name}.svg`, "utf8"));
    }
  });

  it("has an API page for every public entry point, with an anchor for each of its exports", async () => {
    const pkg = JSON.parse(await readFile(`${root}/package.json`, "utf8")) as { exports: Record<string, unknown> };
    const entries = await entryPoints(pkg.exports, root);
    expect(entries.map((e) => e.importPaths[0])).toEqual(expect.arrayContaining(["appauth", "appauth/jwt", "appauth/next", "appauth/providers/github"]));
    for (const entry of entries) {
      const anchors = ids(apiPath(entry.importPaths[0]!).replace(/\.md$/, ".html"));
      expect((await runtimeExports(`${root}/${entry.file}`)).filter((name) => !anchors.has(name)), entry.file).toEqual([]);
    }
  });

  it("lists every getting-started guide in docs/ in the navigation of the home page", async () => {
    const guides = (await readdir(`${root}/docs/getting-started`)).filter((f) => f.endsWith(".md"));
    expect(guides).toEqual(expect.arrayContaining(["next.md", "node.md"]));
    const home = await page("index.html");
    for (const guide of guides) expect(home).toContain(`href="/getting-started/${guide.replace(/\.md$/, ".html")}"`);
  });

  it("has a description, written in the source, for every public option (AuthConfig and every type its options reach)", () => {
    const options = undescribed.filter((row) => row.option);
    expect(options.map((row) => `${row.member} (${row.source})`)).toEqual([]);
  });

  it("has a description for every other member too, apart from the catalog's profile claims and the machines' own types", () => {
    // Still to write: each provider's profile fields (the provider's API documents them) and the machines' context types.
    const rest = undescribed.filter((row) => !row.source.includes("src/providers/catalog/") && !/(^|\/)machines\//.test(row.source));
    expect(rest.map((row) => `${row.member} (${row.source})`)).toEqual([]);
  });

  it("publishes llms.txt, llms-full.txt and each page's Markdown at the site's root", async () => {
    const llms = await page("llms.txt");
    expect(llms).toMatch(/^# appauth\n\n> /);
    const links = [...llms.matchAll(/\]\((\/[^)]+\.md)\)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(["/getting-started/next.md", "/troubleshooting.md", "/providers/github.md", "/api/appauth.md"]));
    // Every link of llms.txt is a Markdown file of the site, with the page's text.
    for (const link of links) expect((await page(link.slice(1))).length, link).toBeGreaterThan(20);
    const full = await page("llms-full.txt");
    expect(full).toContain("## RateLimited");
    expect(full).not.toContain("<Badge");
  });
});

describe("package-manager tabs", () => {
  it("turn an install-only block into npm, pnpm, yarn and bun tabs, and leave any other block alone", () => {
    const source = "```sh\nnpm install appauth   # the library\nnpm install -D @statelyai/inspect\n```\n\n```sh\nAUTH_SECRET=x\n```\n";
    expect(withPackageManagerTabs(source)).toBe(
      [
        "::: code-group",
        "",
        "```sh [npm]\nnpm install appauth   # the library\nnpm install -D @statelyai/inspect\n```",
        "",
        "```sh [pnpm]\npnpm add appauth   # the library\npnpm add -D @statelyai/inspect\n```",
        "",
        "```sh [yarn]\nyarn add appauth   # the library\nyarn add -D @statelyai/inspect\n```",
        "",
        "```sh [bun]\nbun add appauth   # the library\nbun add -d @statelyai/inspect\n```",
        "",
        ":::",
        "",
        "```sh\nAUTH_SECRET=x\n```\n",
      ].join("\n"),
    );
  });

  it("make tabs of a titled install block (the guide tests' `title=\"install\"`), dropping the title", () => {
    const tabbed = withPackageManagerTabs('```sh title="install"\nnpm install appauth\n```\n');
    expect(tabbed).toMatch(/^::: code-group\n/);
    expect(tabbed).toContain("```sh [pnpm]\npnpm add appauth\n```");
    expect(tabbed).not.toContain("title=");
  });
});

browserChecks(dir, site);

describe("the link checker", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(`${tmpdir()}/appauth-links-`);
    await mkdir(`${dir}/guide`);
    await writeFile(
      `${dir}/index.html`,
      '<h1 id="top">Home</h1><a href="guide/a.html#setup">ok</a><a href="#top">ok</a><a href="https://example.com/x">ok</a><a href="/guide/">ok</a><a href="/">ok</a>',
    );
    await writeFile(`${dir}/guide/index.html`, '<a href="/guide/a.html#setup">ok</a><a href="/guide/b.html">no page</a>');
    await writeFile(
      `${dir}/guide/a.html`,
      [
        '<h2 id="setup">Set-up</h2><h2 id="setup">Again</h2>',
        '<a href="../index.html#missing">no anchor</a>',
        '<a href="b.html">no page</a>',
        '<a href="http://example.com/">not https</a>',
        '<img src="../diagram.svg">',
      ].join(""),
    );
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reports a missing page, a missing anchor, a plain-http link, a missing image and a repeated id", async () => {
    expect(await checkLinks(dir)).toEqual([
      "guide/a.html: #setup: the id is used more than once on the page",
      "guide/a.html: ../index.html#missing: index.html has no anchor #missing",
      "guide/a.html: b.html: no such page: guide/b.html",
      "guide/a.html: http://example.com/: external links must be https URLs",
      "guide/a.html: ../diagram.svg: no such page: diagram.svg",
      "guide/index.html: /guide/b.html: no such page: guide/b.html",
    ]);
  });
});

describe("the built site's stamp", () => {
  let fakeRoot: string;

  beforeAll(async () => {
    fakeRoot = await mkdtemp(`${tmpdir()}/appauth-stamp-`);
    await mkdir(`${fakeRoot}/docs/.site`, { recursive: true });
    await writeFile(`${fakeRoot}/docs/index.md`, "# Home\n");
    await writeFile(`${fakeRoot}/package.json`, "{}");
  });

  afterAll(async () => {
    if (fakeRoot) await rm(fakeRoot, { recursive: true, force: true });
  });

  it("holds while the inputs are unchanged, ignores the output folder, and changes with any page", async () => {
    const before = await siteDigest(fakeRoot);
    await writeFile(`${fakeRoot}/docs/.site/index.html`, "<p>built</p>");
    expect(await siteDigest(fakeRoot)).toBe(before);
    await writeFile(`${fakeRoot}/docs/.site/.stamp`, before);
    expect(await isSiteCurrent(fakeRoot, `${fakeRoot}/docs/.site`)).toBe(true);
    await writeFile(`${fakeRoot}/docs/index.md`, "# Home, edited\n");
    expect(await isSiteCurrent(fakeRoot, `${fakeRoot}/docs/.site`)).toBe(false);
  });
});

/**
 * The runtime exports of an entry point: imported where Node can load it, read from its source where
 * only a bundler can (the Qwik entry needs Qwik City's virtual modules).
 */
async function runtimeExports(file: string): Promise<string[]> {
  try {
    return Object.keys((await import(file)) as Record<string, unknown>);
  } catch {
    const source = await readFile(file, "utf8");
    const declared = [...source.matchAll(/^export (?:async )?(?:const|let|function|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
    const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) =>
      m[1]!
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part && !part.startsWith("type "))
        .map((part) => part.split(/\s+as\s+/).pop()!.trim()),
    );
    return [...new Set([...declared, ...listed])];
  }
}
