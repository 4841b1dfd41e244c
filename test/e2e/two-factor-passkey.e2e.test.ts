/**
 * A passkey as the second factor in Chromium, through the built-in challenge page and its inline
 * script, with the DevTools virtual authenticator: Ada signs in with her password and an
 * authenticator-app code, adds a passkey on the sign-in page, and then answers the challenge of her
 * next password sign-in with "Use a passkey". Served on `http://localhost:<port>` (a secure context
 * whose host is the relying party's id).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNodeListener } from "../../demo/node-http.js";
import { MemoryAdapter } from "../../src/adapters/memory/index.js";
import { Auth } from "../../src/index.js";
import { decode } from "../../src/jwt/index.js";
import { Passkey } from "../../src/providers/webauthn.js";
import { sealSecret } from "../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../src/two-factor/totp.js";
import type { AuthConfig } from "../../src/types.js";
import { BROWSER_SUITE, CHROMIUM, CHROMIUM_ARGS, chromiumFor } from "../helpers/chromium.js";
import { ADA, ADA_PASSWORD, ADA_USERNAME, passwordProvider, SECRET, SESSION_COOKIE } from "../helpers/config.js";

const hasChromium = chromiumFor("the passkey second-factor e2e test");

describe.runIf(hasChromium)("a passkey as the second factor in Chromium", BROWSER_SUITE, () => {
  const adapter = MemoryAdapter();
  const totpSecret = generateTotpSecret();
  const config: AuthConfig = {
    adapter,
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [passwordProvider(), Passkey()],
    twoFactor: {},
  };
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await adapter.createUser({ ...ADA, emailVerified: new Date() });
    const secret = await sealSecret(totpSecret, SECRET);
    await adapter.createTwoFactor({ id: "phone", userId: ADA.id, type: "totp", createdAt: new Date(), secret, lastUsedStep: -1, active: true });
    server = createServer(
      toNodeListener(async (request) =>
        new URL(request.url).pathname.startsWith("/auth/")
          ? Auth(request, config)
          : new Response("<!doctype html><title>App</title><h1>App</h1>", { headers: { "content-type": "text/html" } }),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ baseURL: origin });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const authenticator = { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true };
    await cdp.send("WebAuthn.addVirtualAuthenticator", { options: { ...authenticator, automaticPresenceSimulation: true } as never });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** Ada's password, posted as the sign-in form does (the browser keeps the pending cookie); where it sends her. */
  async function password(): Promise<string | null> {
    const { csrfToken } = (await (await page.request.get("/auth/csrf")).json()) as { csrfToken: string };
    const form = { csrfToken, username: ADA_USERNAME, password: ADA_PASSWORD, callbackUrl: "/dashboard" };
    const answer = await page.request.post("/auth/callback/credentials", { form, maxRedirects: 0 });
    return answer.headers()["location"] ?? null;
  }

  async function sessionEmail(): Promise<string | null> {
    const session = (await (await page.request.get("/auth/session")).json()) as { user?: { email?: string } } | null;
    return session?.user?.email ?? null;
  }

  it("passes the challenge with a code while Ada has no passkey (no passkey button)", async () => {
    expect(await password()).toBe(`${origin}/auth/two-factor-challenge`);
    await page.goto("/auth/two-factor-challenge");
    expect(await page.getByRole("button", { name: "Use a passkey" }).count()).toBe(0);
    await page.getByLabel("Code from your authenticator app").fill(await generateTotp(totpSecret, Date.now()));
    await page.getByRole("button", { name: "Verify" }).first().click();
    await page.waitForURL(`${origin}/dashboard`);
    expect(await sessionEmail()).toBe(ADA.email);
  });

  it("adds a passkey for the signed-in Ada on the sign-in page", async () => {
    await page.goto("/auth/signin?callbackUrl=/registered");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(`${origin}/registered`);
    expect(await adapter.listAuthenticatorsByUserId(ADA.id)).toHaveLength(1);
  });

  it("answers the next sign-in's challenge with 'Use a passkey': signed in, amr pwd + hwk + mfa", async () => {
    await page.context().clearCookies();
    expect(await sessionEmail()).toBeNull();
    expect(await password()).toBe(`${origin}/auth/two-factor-challenge`);
    await page.goto("/auth/two-factor-challenge");
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL(`${origin}/dashboard`);
    expect(errors).toEqual([]);
    expect(await sessionEmail()).toBe(ADA.email);
    const cookie = (await page.context().cookies(origin)).find((c) => c.name === SESSION_COOKIE);
    const token = await decode({ token: cookie!.value, secret: SECRET, salt: SESSION_COOKIE });
    expect(token).toMatchObject({ sub: ADA.id, amr: ["pwd", "hwk", "mfa"] });
  });
});
