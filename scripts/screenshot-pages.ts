/**
 * Renders every built-in page in Chromium, in the light and the dark scheme, and saves PNGs to
 * test/.artifacts/pages/ for a human to look at. Run: `npx tsx scripts/screenshot-pages.ts`.
 * Needs Debian's Chromium at /usr/bin/chromium (`apt-get install chromium`).
 */
import { mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type PageResult,
  type PageTheme,
} from "../src/pages/index.js";
import {
  BASE,
  CALLBACK,
  CSRF,
  allProviders,
  credentialsProvider,
  logo,
  passkeyProvider,
} from "../test/src/pages/fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const OUT = join(import.meta.dirname, "..", "test", ".artifacts", "pages");

const auto: PageTheme = { colorScheme: "auto" };
const branded: PageTheme = { colorScheme: "auto", brandColor: "#0f766e", logo };

const pages: Record<string, PageResult> = {
  signin: renderSignInPage({ theme: auto, providers: allProviders, csrfToken: CSRF, callbackUrl: CALLBACK }),
  "signin-error": renderSignInPage({
    theme: auto,
    providers: allProviders,
    csrfToken: CSRF,
    callbackUrl: CALLBACK,
    error: "CredentialsSignin",
    code: "credentials",
  }),
  "signin-branded": renderSignInPage({
    theme: branded,
    providers: [credentialsProvider, passkeyProvider],
    csrfToken: CSRF,
    callbackUrl: CALLBACK,
    error: "OAuthAccountNotLinked",
  }),
  signout: renderSignOutPage({ theme: auto, csrfToken: CSRF, signOutUrl: `${BASE}/signout`, callbackUrl: CALLBACK }),
  "error-verification": renderErrorPage({
    theme: auto,
    error: "Verification",
    signInUrl: `${BASE}/signin`,
    homeUrl: "https://app.example.com",
  }),
  "error-configuration": renderErrorPage({
    theme: branded,
    error: "Configuration",
    signInUrl: `${BASE}/signin`,
    homeUrl: "https://app.example.com",
  }),
  "verify-request": renderVerifyRequestPage({
    theme: auto,
    homeUrl: "https://app.example.com",
    email: "jane.doe@example.com",
  }),
};

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium`);
  }
  await mkdir(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const viewports = { desktop: { width: 1100, height: 860 }, mobile: { width: 390, height: 844 } };
    for (const scheme of ["light", "dark"] as const) {
      for (const [size, viewport] of Object.entries(viewports)) {
        const page = await browser.newPage({ viewport, colorScheme: scheme });
        for (const [name, result] of Object.entries(pages)) {
          if (size === "mobile" && name !== "signin") continue;
          await page.setContent(result.html);
          const file = join(OUT, `${name}-${scheme}${size === "mobile" ? "-mobile" : ""}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(file);
        }
        // The keyboard focus ring, on the first field of the sign-in page's password form.
        if (size === "desktop") {
          await page.setContent((pages["signin"] as PageResult).html);
          for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
          await page.screenshot({ path: join(OUT, `signin-focus-${scheme}.png`), fullPage: true });
        }
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
