/**
 * The VitePress configuration of the docs site. `npm run docs` writes every page (the hand-written
 * ones of docs/ and the generated ones) into docs/.gen with the sidebar beside them, then builds
 * from there into docs/.site.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type DefaultTheme } from "vitepress";
import { slug } from "../../scripts/docs/markdown.js";

const generated = fileURLToPath(new URL("../.gen", import.meta.url));
const sidebar: DefaultTheme.SidebarItem[] = existsSync(`${generated}/sidebar.json`)
  ? (JSON.parse(readFileSync(`${generated}/sidebar.json`, "utf8")) as DefaultTheme.SidebarItem[])
  : [];

export default defineConfig({
  title: "appauth",
  description: "Sign-in and sessions for web applications, with every flow an explicit XState state machine.",
  lang: "en",
  srcDir: ".gen",
  outDir: ".site",
  cacheDir: ".vitepress/cache",
  // Pages are /concepts/sessions.html: the addresses the library's messages link to.
  cleanUrls: false,
  lastUpdated: false,
  markdown: {
    // Anchors are the heading's text in lower case (`## UntrustedHost` is #untrustedhost), the ones
    // the library's error messages point at.
    anchor: { slugify: slug },
    theme: { light: "github-light", dark: "github-dark" },
  },
  vite: {
    // The site is static files: no gzip size report (slow with a hundred chunks), no warning for the search index's size.
    build: { reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  },
  themeConfig: {
    nav: [
      { text: "Guides", link: "/getting-started/next", activeMatch: "^/(getting-started|concepts)/" },
      { text: "Providers", link: "/providers/", activeMatch: "^/providers/" },
      { text: "Flow diagrams", link: "/machines/", activeMatch: "^/machines/" },
      { text: "API", link: "/api/", activeMatch: "^/api/" },
      { text: "Troubleshooting", link: "/troubleshooting" },
    ],
    sidebar,
    outline: { level: [2, 3], label: "On this page" },
    search: { provider: "local" },
    docFooter: { prev: "Previous", next: "Next" },
  },
});
