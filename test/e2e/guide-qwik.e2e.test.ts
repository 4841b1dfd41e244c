/**
 * docs/getting-started/qwik.md followed as written (issue 26): the Qwik City 1.20 starter with the
 * node-server adapter (the fresh-app test's app, test/e2e/fresh-qwik: its config, entries and root,
 * none of its routes), appauth packed by `npm pack`, then every file of the guide's titled code
 * blocks; the guide's "run" block (`npm run build`, `npm run serve`), and a person signs in with
 * the guide's demo credentials in Chromium, sees the guarded page, and signs out.
 */
import { describe, expect, it } from "vitest";
import { BROWSER_SUITE, chromiumFor } from "../helpers/chromium.js";
import { QWIK_APP, QWIK_SERVER } from "./fresh-qwik/spec.js";
import { servedInBrowser } from "./fresh-next/harness.js";
import { block, guideBlocks, packAndServeGuide } from "./guide-blocks.js";

const SETUP_TIMEOUT = 600_000;
const hasChromium = chromiumFor("the Qwik City guide e2e test");
const blocks = await guideBlocks("getting-started/qwik.md");

describe.runIf(hasChromium)("docs/getting-started/qwik.md followed as written, in the Qwik City starter", BROWSER_SUITE, () => {
  const suite = servedInBrowser(
    "guide qwik",
    async () => {
      // The "run" block: `npm run build` (packAndServe runs it), then `npm run serve` (QWIK_SERVER runs its script's command).
      expect(block(blocks, "run").code.trim().split("\n")).toEqual(["npm run build", "npm run serve"]);
      expect(QWIK_APP.scripts?.serve).toBe("node server/entry.node-server");
      // The starter's own files stay; the fresh-app test's routes and libraries give way to the guide's.
      return packAndServeGuide(blocks, QWIK_APP, QWIK_SERVER, ["src/routes"]);
    },
    SETUP_TIMEOUT,
  );
  const heading = () => suite.page().getByRole("heading", { level: 1 }).textContent();

  /** Submits the page's `<Form>` with `button` and resolves with the status of the action's answer (the POST with `qaction`). */
  async function submit(button: string): Promise<number> {
    const page = suite.page();
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).searchParams.has("qaction"));
    await page.getByRole("button", { name: button }).click();
    return (await answered).status();
  }

  it("shows every file it names", () => {
    const titles = blocks.map((b) => b.title);
    for (const file of ["src/lib/users.ts", "src/routes/plugin@auth.ts", "src/routes/index.tsx", "src/routes/protected/layout.tsx", "src/routes/protected/index.tsx"]) {
      expect(titles).toContain(file);
    }
  });

  it("sends a signed-out visitor of /protected/ to sign in, signs in with the guide's demo credentials, and signs out", async () => {
    const page = suite.page();
    const url = suite.served().server.url;
    await page.goto("/protected/");
    expect(new URL(page.url()).pathname).toBe("/auth/signin");

    await page.goto("/");
    expect(await heading()).toBe("Not signed in");
    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("correct horse battery staple");
    expect(await submit("Sign in")).toBeLessThan(400);
    await expect.poll(heading).toBe("Signed in as Demo User");

    await page.goto("/protected/");
    expect(page.url()).toBe(`${url}/protected/`);
    expect(await heading()).toBe("Hello Demo User");

    await page.goto("/");
    expect(await heading()).toBe("Signed in as Demo User");
    expect(await submit("Sign out")).toBeLessThan(400);
    await expect.poll(heading).toBe("Not signed in");
    expect(await (await page.request.get("/auth/session")).json()).toBeNull();
  });

  it("refuses a wrong password on the page, saying so in the form", async () => {
    const page = suite.page();
    await page.goto("/");
    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("wrong");
    await submit("Sign in");
    await expect.poll(() => page.getByRole("alert").count()).toBe(1);
    expect(await heading()).toBe("Not signed in");
  });
});
