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
