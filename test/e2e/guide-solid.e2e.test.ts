/**
 * docs/getting-started/solid-start.md followed as written (issue 26): the SolidStart 1.3 app of the
 * fresh-app test (test/e2e/fresh-solid: its entries and tsconfig, none of its routes or lib),
 * appauth packed by `npm pack`, then every file of the guide's titled code blocks; the guide's "run"
 * block (`npm run build`, `npm start`), and a person signs in with the guide's demo credentials in
 * Chromium — with JavaScript off, the forms posted by the browser — lands on the guarded page, and
 * signs out.
 */
import { describe, expect, it } from "vitest";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { SOLID_APP, SOLID_SERVER } from "./fresh-solid/spec.js";
import { servedInBrowser } from "./fresh-next/harness.js";
import { block, guideBlocks, packAndServeGuide } from "./guide-blocks.js";

const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the SolidStart guide e2e test");
const blocks = await guideBlocks("getting-started/solid-start.md");

describe.runIf(hasChromium)("docs/getting-started/solid-start.md followed as written, in a SolidStart app", BROWSER_SUITE, () => {
  const suite = servedInBrowser(
    "guide solid",
    async () => {
      // The "run" block: `npm run build` (packAndServe runs it), then `npm start` (SOLID_SERVER runs what `vinxi start` runs).
      expect(block(blocks, "run").code.trim().split("\n")).toEqual(["npm run build", "npm start"]);
      expect(SOLID_APP.scripts?.start).toBe("vinxi start");
      // The starter's own files stay; the fresh-app test's routes and libraries give way to the guide's.
      return packAndServeGuide(blocks, SOLID_APP, SOLID_SERVER, ["src/routes", "src/lib", "src/middleware.ts", "src/app.tsx", "app.config.ts"]);
    },
    SETUP_TIMEOUT,
  );

  it("shows every file it names", () => {
    const titles = blocks.map((b) => b.title);
    for (const file of ["app.config.ts", "src/lib/auth.ts", "src/lib/users.ts", "src/lib/server.ts", "src/middleware.ts", "src/routes/api/auth/[...auth].ts", "src/routes/account.tsx", "src/app.tsx", "src/routes/index.tsx"]) {
      expect(titles).toContain(file);
    }
  });

  it("sends a visitor of /account to sign in; signs in with the guide's demo credentials, lands on /account, and signs out", async () => {
    const url = suite.served().server.url;
    const context = await suite.browser().newContext({ baseURL: url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const heading = () => page.getByRole("heading", { level: 1 }).textContent();
      const submit = (button: string) => Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button }).click()]);
      await page.goto("/account");
      expect(new URL(page.url()).pathname).toBe("/api/auth/signin");

      await page.goto("/");
      expect(await heading()).toBe("Not signed in");
      await page.getByLabel("Username").fill("demo");
      await page.getByLabel("Password").fill("correct horse battery staple");
      await submit("Sign in");
      expect(page.url()).toBe(`${url}/account`);
      expect(await heading()).toBe("Hello Demo User");

      await page.goto("/");
      expect(await heading()).toBe("Signed in as Demo User");
      await submit("Sign out");
      expect(await heading()).toBe("Not signed in");
      expect(await (await page.request.get("/api/auth/session")).json()).toBeNull();
    } finally {
      await context.close();
    }
  });
});
