/**
 * The built docs site in Chromium, served from docs/.site by a loopback static server: search finds
 * an error type, the package-manager tabs switch, a code block's copy button copies it, the diagram
 * viewer zooms, and at 390 px the menus open and no page scrolls sideways. Registered by
 * docs-site.test.ts, which builds the site once for both.
 */
import { readFile, readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, posix } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_SUITE, CHROMIUM, CHROMIUM_ARGS, chromiumFor } from "../helpers/chromium.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".woff2": "font/woff2",
};

/** Serves `dir` as a static host does: `/x/` is `/x/index.html`, anything missing is 404.html with 404. */
function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      const path = posix.normalize(decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname));
      const file = path.endsWith("/") ? `${path}index.html` : path;
      const body = file.includes("..") ? undefined : await readFile(`${dir}${file}`).catch(() => undefined);
      if (body) {
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
      } else {
        res.writeHead(404, { "content-type": TYPES[".html"] }).end(await readFile(`${dir}/404.html`).catch(() => "not found"));
      }
    })();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function htmlPages(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.endsWith(".html") && entry !== "404.html").sort();
}

/** How far the page at `path` scrolls sideways (0 when it does not). */
async function sidewaysScroll(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "load" });
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export function browserChecks(dir: string, site: () => Promise<unknown>): void {
  if (!chromiumFor("the docs site's browser tests")) return;

  describe("the docs site in Chromium", BROWSER_SUITE, () => {
    let server: Server;
    let base: string;
    let browser: Browser;
    let desktop: BrowserContext;
    let phone: BrowserContext;

    beforeAll(async () => {
      await site();
      server = await serve(dir);
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
      await desktop.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    });

    it("finds the error type RateLimited with the local search, and opens its troubleshooting section", async () => {
      const page = await desktop.newPage();
      await page.goto(`${base}/index.html`);
      await page.getByRole("button", { name: "Search" }).click();
      const input = page.getByPlaceholder(/search/i);
      await input.fill("RateLimited");
      const result = page.locator(".VPLocalSearchBox .result").filter({ hasText: "RateLimited" }).first();
      await result.waitFor();
      await result.click();
      await page.waitForURL(/\/troubleshooting\.html#ratelimited$/);
      await expect.poll(() => page.locator("h2#ratelimited").isVisible()).toBe(true);
      await page.close();
    });

    it("shows install commands in npm, pnpm, yarn and bun tabs, each copied by its copy button", async () => {
      const page = await desktop.newPage();
      await page.goto(`${base}/getting-started/node.html`);
      const group = page.locator(".vp-code-group").first();
      expect(await group.locator(".tabs label").allTextContents()).toEqual(["npm", "pnpm", "yarn", "bun"]);
      await group.locator(".tabs label", { hasText: "pnpm" }).click();
      const active = group.locator("div[class*='language-'].active");
      expect(await active.locator("code").innerText()).toMatch(/^pnpm add appauth/);
      // The highlighted code has a copy button that copies exactly its text.
      await active.hover();
      await active.locator("button.copy").click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(await active.locator("pre code").innerText());
      await page.close();
    });

    it("highlights code and offers a copy button on every code block of a guide", async () => {
      const page = await desktop.newPage();
      await page.goto(`${base}/getting-started/next.html`);
      const blocks = page.locator(".vp-doc div[class*='language-']");
      expect(await blocks.count()).toBeGreaterThan(5);
      expect(await page.locator(".vp-doc div[class*='language-'] button.copy").count()).toBe(await blocks.count());
      // Shiki colours the tokens of TypeScript: more than one colour in a block.
      const colours = await page
        .locator(".vp-doc div.language-ts pre span[style]")
        .evaluateAll((spans) => new Set(spans.map((s) => getComputedStyle(s).color)).size);
      expect(colours).toBeGreaterThan(2);
      await page.close();
    });

    it("keeps the sidebar and the page's outline in view down a long page", async () => {
      const page = await desktop.newPage();
      await page.goto(`${base}/troubleshooting.html`);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(5000);
      const inView = (selector: string) =>
        page.locator(selector).first().evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.top < window.innerHeight && box.height > 0;
        });
      expect(await inView(".VPSidebar")).toBe(true);
      expect(await inView(".VPDocAsideOutline")).toBe(true);
      expect(await page.locator(".VPDocAsideOutline a", { hasText: "RateLimited" }).count()).toBe(1);
      await page.close();
    });

    it("opens a flow diagram full size and zooms it, in light and dark mode", async () => {
      const page = await desktop.newPage();
      await page.goto(`${base}/machines/oauth.html`);
      await page.getByRole("button", { name: "Open full size", exact: true }).click();
      const viewer = page.getByRole("dialog");
      const image = viewer.locator("img");
      await image.waitFor();
      const before = (await image.boundingBox())!.width;
      await viewer.getByRole("button", { name: "Zoom in" }).click();
      await viewer.getByRole("button", { name: "Zoom in" }).click();
      await expect.poll(async () => (await image.boundingBox())!.width).toBeGreaterThan(before * 1.5);
      // Dragging pans it.
      const box = (await image.boundingBox())!;
      await page.mouse.move(640, 400);
      await page.mouse.down();
      await page.mouse.move(540, 350, { steps: 4 });
      await page.mouse.up();
      expect((await image.boundingBox())!.x).toBeLessThan(box.x - 50);
      await page.keyboard.press("Escape");
      await expect.poll(() => viewer.count()).toBe(0);
      // In dark mode the diagram, drawn on white, is inverted.
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => localStorage.setItem("vitepress-theme-appearance", "dark"));
      await page.reload();
      expect(await page.locator(".diagram-thumb img").evaluate((img) => getComputedStyle(img).filter)).toContain("invert");
      await page.close();
    });

    it("at 390 px: the title is on the first screen, and the menu and the sidebar open", async () => {
      const page = await phone.newPage();
      await page.goto(`${base}/concepts/sessions.html`);
      expect((await page.locator("h1").first().boundingBox())!.y).toBeLessThan(400);
      await page.locator(".VPNavBarHamburger").click();
      await expect.poll(() => page.locator(".VPNavScreen").isVisible()).toBe(true);
      expect(await page.locator(".VPNavScreen").getByRole("link", { name: "Providers" }).isVisible()).toBe(true);
      await page.locator(".VPNavBarHamburger").click();
      await page.locator(".VPLocalNav button.menu").click();
      await expect.poll(() => page.locator(".VPSidebar").isVisible()).toBe(true);
      expect(await page.locator(".VPSidebar").getByRole("link", { name: "Sessions", exact: true }).isVisible()).toBe(true);
      await page.close();
    });

    it("at 390 px no page scrolls sideways, before and after the scripts run", async () => {
      const pages = await htmlPages(dir);
      expect(pages.length).toBeGreaterThan(50);
      const wide: string[] = [];
      // Every page as the server renders it (the scripts change no widths; without them the sweep
      // costs a fraction), then a page of each kind with its scripts.
      const rendered = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, javaScriptEnabled: false });
      const tabs = await Promise.all([rendered.newPage(), rendered.newPage(), rendered.newPage()]);
      let next = 0;
      await Promise.all(
        tabs.map(async (tab) => {
          for (let i = next++; i < pages.length; i = next++) {
            const overflow = await sidewaysScroll(tab, `${base}/${pages[i]}`);
            if (overflow > 0) wide.push(`${pages[i]} (${overflow}px)`);
          }
        }),
      );
      await rendered.close();
      const live = await phone.newPage();
      for (const path of ["index.html", "troubleshooting.html", "api/appauth.html", "providers/github.html", "machines/oauth.html", "getting-started/next.html"]) {
        expect(pages).toContain(path);
        const overflow = await sidewaysScroll(live, `${base}/${path}`);
        if (overflow > 0) wide.push(`${path}, with its scripts (${overflow}px)`);
      }
      await live.close();
      expect(wide.sort()).toEqual([]);
    }, 240_000);
  });
}
