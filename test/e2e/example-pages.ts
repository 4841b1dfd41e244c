/**
 * What the example apps' browser suites (Next, Qwik, SolidStart, the Node demo) read and do on a
 * page in the same way: the session cookies a context holds, `/session` as JSON, a session a page
 * shows as JSON, and a password sign-in on the library's built-in sign-in page.
 */
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

/** The session cookie's name over http (chunks are `<name>.0`, `<name>.1`, …). */
export const SESSION_COOKIE = "appauth.session-token";

/** A session as `/session` answers it and the example pages print it. */
export interface ShownSession {
  user?: { name?: string | null; email?: string | null; image?: string | null; id?: string };
  expires?: string;
}

/** The names of the session cookies (whole or chunked) `context` holds for `origin`. */
export async function sessionCookieNames(context: BrowserContext, origin: string): Promise<string[]> {
  return (await context.cookies(origin)).map((c) => c.name).filter((name) => name.startsWith(SESSION_COOKIE));
}

/** `GET <path>` with the page's cookies, which must answer 200: the session, or null. */
export async function sessionJsonOf(page: Page, path = "/api/auth/session"): Promise<ShownSession | null> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return (await response.json()) as ShownSession | null;
}

/** The session a page prints as JSON in the element `selector`. */
export async function shownSessionOf(page: Page, selector: string): Promise<ShownSession | null> {
  return JSON.parse((await page.locator(selector).textContent()) ?? "") as ShownSession | null;
}

/** The built-in sign-in page's credentials form, filled and submitted as a person would. */
export async function submitBuiltInPassword(page: Page, username: string, password: string): Promise<void> {
  const section = page.locator('section[data-provider-type="credentials"]');
  await section.getByLabel("Username").fill(username);
  await section.getByLabel("Password").fill(password);
  await section.getByRole("button", { name: "Sign in with Credentials" }).click();
}

/** Signs in as demo/demo on the built-in sign-in page under `/api/auth` and waits to be back at `then`. */
export async function signInAsDemoOn(page: Page, origin: string, then = "/"): Promise<void> {
  await page.goto(`/api/auth/signin?callbackUrl=${encodeURIComponent(then)}`);
  await submitBuiltInPassword(page, "demo", "demo");
  await page.waitForURL(new URL(then, origin).href);
}

/** A text on a page whose contrast against what is behind it is below WCAG AA. */
export interface ContrastProblem {
  /** The text (its first 60 characters), or for a form field's edge `edge of <tag>#id`. */
  text: string;
  /** The element it is in: tag, id and classes. */
  element: string;
  ratio: number;
  /** 4.5 for text, 3 for large text (24 px, or 18.66 px bold) and for a control's edge. */
  needed: number;
  foreground: string;
  background: string;
}

/**
 * Every visible text of the page measured against its effective background, the way WCAG 2.2
 * defines contrast (relative luminance, (L1 + 0.05) / (L2 + 0.05)): the text's colour (CSS `color`,
 * or `fill` for SVG text) with its alpha and its ancestors' opacity, over the stack of what is
 * painted under its middle (`elementsFromPoint`: background colours, and the fills of SVG shapes),
 * composited down to the canvas. Text on a background image is reported, since it cannot be
 * measured. Controls that are disabled are left out (WCAG exempts them). Form fields' edges are
 * measured too (3:1 against what surrounds them, 1.4.11). Returns what falls short.
 */
export async function contrastProblems(page: Page): Promise<ContrastProblem[]> {
  // Sent as source: the helpers inside are declared as constants, which the test's transform may
  // wrap in a `__name` call the page does not have.
  return (await page.evaluate(`(() => { const __name = (f) => f; return (${measureContrast.toString()})(); })()`)) as ContrastProblem[];
}

/** Runs in the page: see `contrastProblems`. */
function measureContrast(): ContrastProblem[] {
  {
    type RGBA = [number, number, number, number];
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    /** Any CSS colour the browser computed (rgb(), oklch(), color(srgb …)) as 0–255 sRGB and alpha 0–1. */
    const parse = (css: string): RGBA => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = "#000";
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const over = (top: RGBA, bottom: RGBA): RGBA => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: RGBA) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratioOf = (a: RGBA, b: RGBA) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const show = ([r, g, b, a]: RGBA) => `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${a.toFixed(2)})`;
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.classList].map((c) => `.${c}`).join("")}`;
    // What the page is painted on when nothing under a point is opaque: the canvas of the used scheme.
    const dark = matchMedia("(prefers-color-scheme: dark)").matches && getComputedStyle(document.documentElement).colorScheme.includes("dark");
    const canvasColour: RGBA = dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
    const opacityOf = (el: Element) => {
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      return opacity;
    };
    const SHAPES = new Set(["rect", "path", "circle", "ellipse", "polygon"]);
    /** What is painted under the point, from `from` (the text's element) down; `null` when an image is. */
    const backgroundAt = (x: number, y: number, from: Element): RGBA | null => {
      const stack = document.elementsFromPoint(x, y);
      const start = stack.indexOf(from);
      const layers: RGBA[] = [];
      for (const el of start >= 0 ? stack.slice(start) : stack) {
        const style = getComputedStyle(el);
        if (el instanceof SVGElement) {
          if (!SHAPES.has(el.tagName) || style.fill === "none" || style.fill.startsWith("url(")) continue;
          const fill = parse(style.fill);
          layers.push([fill[0], fill[1], fill[2], fill[3] * Number(style.fillOpacity) * opacityOf(el)]);
        } else {
          if (style.backgroundImage !== "none") return null;
          const colour = parse(style.backgroundColor);
          layers.push([colour[0], colour[1], colour[2], colour[3] * opacityOf(el)]);
        }
        if (layers.at(-1)![3] >= 1) break;
      }
      return layers.reduceRight<RGBA>((below, layer) => over(layer, below), canvasColour);
    };
    const problems: ContrastProblem[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, " ").trim() ?? "";
      const el = node.parentElement;
      if (!text || !el || el.closest("script, style, noscript, template, title")) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue;
      if (el.closest(":disabled")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = [...range.getClientRects()].find((r) => r.width > 1 && r.height > 1);
      if (!box) continue;
      // Off screen in a scrolled box: brought into view, then measured where it is painted.
      el.scrollIntoView({ block: "center", inline: "center" });
      const rect = [...range.getClientRects()].find((r) => r.width > 1 && r.height > 1) ?? box;
      const x = Math.min(Math.max(rect.left + rect.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(rect.top + rect.height / 2, 0), innerHeight - 1);
      const style = getComputedStyle(el);
      const background = backgroundAt(x, y, el);
      const colour = parse(el instanceof SVGElement ? style.fill : style.color);
      const foreground: RGBA = [colour[0], colour[1], colour[2], colour[3] * opacityOf(el)];
      const size = parseFloat(style.fontSize) * (el instanceof SVGElement ? ((el as unknown as SVGGraphicsElement).getScreenCTM()?.a ?? 1) : 1);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const needed = large ? 3 : 4.5;
      if (background === null) {
        problems.push({ text: text.slice(0, 60), element: describe(el), ratio: 0, needed, foreground: show(foreground), background: "an image" });
        continue;
      }
      const ratio = ratioOf(over(foreground, background), background);
      if (ratio < needed) {
        problems.push({ text: text.slice(0, 60), element: describe(el), ratio: Math.round(ratio * 100) / 100, needed, foreground: show(foreground), background: show(background) });
      }
    }
    // Form fields' edges: the border (or the field's own fill) against what is around the field.
    for (const field of document.querySelectorAll<HTMLElement>("input:not([type=hidden]), select, textarea")) {
      if (!field.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || field.matches(":disabled")) continue;
      const style = getComputedStyle(field);
      const rect = field.getBoundingClientRect();
      if (rect.width < 2 || rect.height < 2) continue;
      field.scrollIntoView({ block: "center" });
      const at = field.getBoundingClientRect();
      const outside = field.parentElement ? backgroundAt(at.left + at.width / 2, at.top + at.height / 2, field.parentElement) : canvasColour;
      if (outside === null) continue;
      const border = parseFloat(style.borderTopWidth) > 0 ? over(parse(style.borderTopColor), outside) : null;
      const fill = over(parse(style.backgroundColor), outside);
      const ratio = Math.max(border ? ratioOf(border, outside) : 1, ratioOf(fill, outside));
      if (ratio < 3) {
        problems.push({ text: `edge of ${describe(field)}`, element: describe(field), ratio: Math.round(ratio * 100) / 100, needed: 3, foreground: show(border ?? fill), background: show(outside) });
      }
    }
    scrollTo(0, 0);
    return problems;
  }
}

/** The colour schemes every example page is measured in. */
export const COLOR_SCHEMES = ["light", "dark"] as const;

/** `contrastProblems` of the page now open, in light and in dark (emulated), keyed `<scheme> <label>`. */
export async function contrastInBothSchemes(page: Page, label: string): Promise<Record<string, ContrastProblem[]>> {
  const found: Record<string, ContrastProblem[]> = {};
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    found[`${colorScheme} ${label}`] = await contrastProblems(page);
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/** What `auditPage` found on one page; every list empty is a page without these rough edges. */
export interface PageAudit {
  /** `<scheme> <path>` → the texts below WCAG AA there. */
  contrast: Record<string, ContrastProblem[]>;
  /** Requests of the page's own origin answered 4xx or 5xx (the icon included), as `<status> <path>`. */
  failedRequests: string[];
  /** Dates shown in ISO 8601 form (outside the JSON in `<pre>` blocks, which prints them as data). */
  isoDates: string[];
}

const ISO_DATE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Opens `path` and measures it: contrast in both schemes, failed requests, dates left in ISO form. */
export async function auditPage(page: Page, origin: string, path: string): Promise<PageAudit> {
  const failedRequests: string[] = [];
  const onResponse = (response: { status(): number; url(): string }) => {
    const target = new URL(response.url());
    if (response.status() >= 400 && target.origin === new URL(origin).origin) failedRequests.push(`${response.status()} ${target.pathname}`);
  };
  page.on("response", onResponse);
  try {
    await page.goto(path);
    await page.waitForLoadState("load");
    const contrast = await contrastInBothSchemes(page, path);
    const isoDates = await page.evaluate((pattern) => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        if (new RegExp(pattern).test(text) && !node.parentElement?.closest("pre, script")) found.push(text.trim().slice(0, 80));
      }
      return found;
    }, ISO_DATE.source);
    return { contrast, failedRequests: [...failedRequests], isoDates };
  } finally {
    page.off("response", onResponse);
  }
}

/** Audits every path and folds the findings into one value, so a failure lists all of them. */
export async function auditPages(page: Page, origin: string, paths: string[]): Promise<PageAudit> {
  const all: PageAudit = { contrast: {}, failedRequests: [], isoDates: [] };
  for (const path of paths) {
    const audit = await auditPage(page, origin, path);
    for (const [key, problems] of Object.entries(audit.contrast)) if (problems.length > 0) all.contrast[key] = problems;
    all.failedRequests.push(...audit.failedRequests);
    all.isoDates.push(...audit.isoDates.map((date) => `${path}: ${date}`));
  }
  return all;
}

/** An audit with nothing found, for `toEqual`. */
export const CLEAN_AUDIT: PageAudit = { contrast: {}, failedRequests: [], isoDates: [] };

/**
 * How the header of the page now open sits at a phone's width (390 px): each link, button and the
 * user's name on one line, inside the screen, and nothing scrolling sideways. Returns what does not.
 */
export async function headerProblemsOnPhone(page: Page): Promise<string[]> {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    return await page.evaluate(() => {
      const problems: string[] = [];
      if (document.documentElement.scrollWidth > innerWidth) problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
      const header = document.querySelector("header");
      if (!header) return ["no header"];
      for (const item of header.querySelectorAll<HTMLElement>("a, button, #header-user")) {
        if (!item.checkVisibility()) continue;
        const range = document.createRange();
        range.selectNodeContents(item);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        const box = item.getBoundingClientRect();
        const name = item.textContent?.trim() ?? "";
        if (lines.size > 1) problems.push(`"${name}" wraps over ${lines.size} lines`);
        if (box.left < 0 || box.right > innerWidth) problems.push(`"${name}" is outside the screen`);
      }
      return problems;
    });
  } finally {
    if (viewport) await page.setViewportSize(viewport);
  }
}

/** A time as the examples show it: "29 Nov 2026, 03:45 UTC" (examples/shared/time.ts). */
export const READABLE_TIME = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/;

/**
 * The diagrams of the /flows page now open, as the current viewport shows them: how far the page
 * scrolls sideways, the smallest label's size on screen in px, and whether in the dark scheme
 * (emulated here) every diagram is drawn on a dark background.
 */
export async function diagramsOnPhone(page: Page): Promise<{ pageOverflow: number; smallestLabel: number; darkBackgrounds: boolean }> {
  const drawn = await page.evaluate(() => ({
    pageOverflow: document.documentElement.scrollWidth - innerWidth,
    smallestLabel: Math.min(
      ...[...document.querySelectorAll<SVGTextElement>(".flow-diagram svg text")].map(
        (label) => parseFloat(getComputedStyle(label).fontSize) * (label.getScreenCTM()?.a ?? 1),
      ),
    ),
  }));
  await page.emulateMedia({ colorScheme: "dark" });
  const darkBackgrounds = await page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    const backgrounds = [...document.querySelectorAll(".flow-diagram svg > rect:first-of-type")].map((rect) => {
      canvas.fillStyle = getComputedStyle(rect).fill;
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
      return (r! + g! + b!) / 3;
    });
    return backgrounds.length > 0 && backgrounds.every((level) => level < 64);
  });
  await page.emulateMedia({ colorScheme: null });
  return { ...drawn, darkBackgrounds };
}

/** What `timesAndPhoneHeader` reads. */
export interface TimesAndHeader {
  /** The session's expiry as the protected page shows it. */
  expires: string | null;
  /** When the mail to `mailTo` arrived, as the dev mailbox shows it. */
  received: string | null;
  /** `headerProblemsOnPhone` of the home and protected pages, together. */
  header: string[];
}

/** The times a person reads on the protected page and in the dev mailbox, and the header on a phone. */
export async function timesAndPhoneHeader(
  page: Page,
  paths: { home: string; protected: string; mailbox: string },
  mailTo: string,
): Promise<TimesAndHeader> {
  await page.goto(paths.mailbox);
  const received = await page.getByRole("article", { name: `Mail to ${mailTo}` }).locator("time").textContent();
  const header: string[] = [];
  await page.goto(paths.home);
  header.push(...(await headerProblemsOnPhone(page)));
  await page.goto(paths.protected);
  header.push(...(await headerProblemsOnPhone(page)));
  const expires = await page.locator("dd time").textContent();
  return { expires, received, header };
}

/** What `timesAndPhoneHeader` finds on an example without rough edges. */
export const READABLE_AND_FITTING = {
  expires: expect.stringMatching(READABLE_TIME),
  received: expect.stringMatching(READABLE_TIME),
  header: [],
};

/**
 * The media type of the icon the page now open links to: from its `data:` URL when the build
 * inlined it (Vite does for small files), else as the server answers it, which must be a 200.
 */
export async function iconTypeOf(page: Page): Promise<string | undefined> {
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  if (href === null) return undefined;
  const inline = /^data:([^;,]+)/.exec(href);
  if (inline) return inline[1];
  const icon = await page.request.get(href);
  expect(icon.status()).toBe(200);
  return icon.headers()["content-type"]?.split(";")[0];
}
