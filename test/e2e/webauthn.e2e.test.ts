/**
 * Passkeys in Chromium, through the built-in sign-in page and its inline script, with the DevTools
 * virtual authenticator (a CTAP2 platform authenticator with resident keys and user verification).
 * `Auth` is served on `http://localhost:<port>`: WebAuthn needs a secure context, and `localhost`
 * is one; `127.0.0.1` would not match the relying party's id.
 *
 * How Chromium's virtual authenticator treats autofill (conditional mediation), found by trying:
 * headless Chromium has no autofill dropdown to pick from; instead, with automaticPresenceSimulation
 * on, the virtual authenticator answers a pending `mediation: "conditional"` request as soon as it
 * holds a credential for the relying party, with no click or focus. With presence simulation off, the
 * conditional request stays pending, and turning it on later does not complete that request. So the
 * button test turns presence simulation off while the page loads (else autofill would sign in
 * first), and the autofill test proves the sign-in came from the conditional request.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Request as PwRequest } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, chromiumFor, BROWSER_SUITE } from "../helpers/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNodeListener } from "../../demo/node-http.js";
import { MemoryAdapter } from "../../src/adapters/memory/index.js";
import { Auth } from "../../src/index.js";
import { Passkey } from "../../src/providers/webauthn.js";
import type { AuthConfig } from "../../src/types.js";
import { SECRET, recordingLogger } from "../helpers/config.js";

const ARTIFACTS = fileURLToPath(new URL("../.artifacts/e2e/", import.meta.url));
const SESSION_COOKIE = "appauth.session-token";
const EMAIL = "grace@example.com";

const hasChromium = chromiumFor("the passkey e2e tests");

interface VirtualCredential {
  /** Standard base64: the form the store keeps too. */
  credentialId: string;
  rpId: string;
  signCount: number;
  isResidentCredential: boolean;
  userName?: string;
}

/** One person's browser: its own profile, its own virtual authenticator, and a record of what the page did. */
class Visitor {
  /** Every navigator.credentials call the page made, with its mediation. */
  calls: { method: string; mediation: string }[] = [];
  /** The forms the page posted to a passkey callback. */
  posted: URLSearchParams[] = [];
  /** Uncaught errors in the page: the script reports failures in the page, it never throws them. */
  readonly pageErrors: string[] = [];

  private constructor(
    readonly origin: string,
    readonly context: BrowserContext,
    readonly page: Page,
    readonly cdp: CDPSession,
    readonly authenticatorId: string,
  ) {}

  /**
   * A new browser profile with a virtual authenticator. `withoutJsonHelpers` removes WebAuthn
   * Level 3's parse*FromJSON and toJSON before any page script runs, as in older browsers.
   */
  static async open(browser: Browser, origin: string, options: { withoutJsonHelpers?: boolean } = {}): Promise<Visitor> {
    const context = await browser.newContext({ baseURL: origin });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const visitor = new Visitor(origin, context, page, cdp, authenticatorId);
    await page.exposeBinding("__recordCredentialCall", (_source, call: { method: string; mediation: string }) => {
      visitor.calls.push(call);
    });
    await page.addInitScript((withoutJsonHelpers: boolean) => {
      const record = (window as unknown as { __recordCredentialCall: (c: { method: string; mediation: string }) => void })
        .__recordCredentialCall;
      for (const method of ["create", "get"] as const) {
        const original = navigator.credentials[method].bind(navigator.credentials);
        navigator.credentials[method] = (options?: CredentialRequestOptions & CredentialCreationOptions) => {
          record({ method, mediation: options?.mediation ?? "optional" });
          return original(options);
        };
      }
      if (withoutJsonHelpers) {
        const pkc = PublicKeyCredential as unknown as Record<string, unknown>;
        delete pkc.parseCreationOptionsFromJSON;
        delete pkc.parseRequestOptionsFromJSON;
        delete (PublicKeyCredential.prototype as unknown as Record<string, unknown>).toJSON;
      }
    }, options.withoutJsonHelpers === true);
    page.on("request", (request: PwRequest) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/auth/callback/")) {
        visitor.posted.push(new URLSearchParams(request.postData() ?? ""));
      }
    });
    page.on("pageerror", (error) => visitor.pageErrors.push(error.message));
    return visitor;
  }

  async virtualCredentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.cdp.send("WebAuthn.getCredentials", { authenticatorId: this.authenticatorId });
    return credentials as VirtualCredential[];
  }

  async presence(enabled: boolean): Promise<void> {
    await this.cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId: this.authenticatorId, enabled });
  }

  async session(): Promise<{ user?: { email?: string | null } } | null> {
    const response = await this.page.request.get("/auth/session");
    return (await response.json()) as { user?: { email?: string | null } } | null;
  }

  async autofillState(): Promise<string | null> {
    return this.page.locator("form[data-webauthn-options]").getAttribute("data-webauthn-autofill-state");
  }

  /** Opens the sign-in page with a fresh record of what it does. */
  async openSignIn(callbackPath: string): Promise<void> {
    this.calls = [];
    this.posted = [];
    await this.page.goto(`/auth/signin?callbackUrl=${encodeURIComponent(callbackPath)}`);
  }

  async signOut(): Promise<void> {
    await this.page.goto("/auth/signout");
    await this.page.getByRole("button", { name: "Sign out" }).click();
    await this.page.waitForURL((url) => url.pathname !== "/auth/signout");
    expect(await this.session()).toBeNull();
    expect((await this.context.cookies(this.origin)).map((c) => c.name)).not.toContain(SESSION_COOKIE);
  }
}

/** A passkey-only configuration on a fresh memory store, logging into a recorder. */
function passkeyApp() {
  const adapter = MemoryAdapter();
  const logger = recordingLogger();
  const config: AuthConfig = {
    adapter,
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    logger,
  };
  return { config, adapter, logger };
}

/** `Auth` under /auth and a plain page elsewhere, on http://localhost:<ephemeral port>. */
async function serveApp(config: AuthConfig): Promise<{ server: Server; origin: string }> {
  const server = createServer(
    toNodeListener(async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith("/auth/")) return Auth(request, config);
      return new Response(`<!doctype html><title>App</title><h1>App home: ${pathname}</h1>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

describe.runIf(hasChromium)("passkeys in Chromium with a virtual authenticator", BROWSER_SUITE, () => {
  const { config, adapter, logger } = passkeyApp();
  let server: Server;
  let origin: string;
  let browser: Browser;
  // One browser profile for the whole story: the virtual authenticator keeps its passkey between tests.
  let v: Visitor;
  let page: Page;

  beforeAll(async () => {
    ({ server, origin } = await serveApp(config));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    v = await Visitor.open(browser, origin);
    page = v.page;
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it("starts an autofill (conditional) request on page load, and the email field offers passkeys", async () => {
    // Presence simulation off: the virtual authenticator leaves the request pending, as a browser
    // does while its autofill waits for a choice.
    await v.presence(false);
    try {
      await v.openSignIn("/registered");
      await expect.poll(() => v.autofillState()).toBe("pending");
    } finally {
      await v.presence(true);
    }
    expect(v.calls).toEqual([{ method: "get", mediation: "conditional" }]);
    expect(await page.getByLabel("Email").getAttribute("autocomplete")).toBe("username webauthn");
    expect(new URL(page.url()).pathname).toBe("/auth/signin");
  });

  it("keeps quiet when the browser turns the autofill request down (no passkey to offer yet)", async () => {
    // With presence simulation on and no credential for this site, the virtual authenticator
    // rejects the conditional request at once: the page notes it and says nothing to the person.
    await v.openSignIn("/registered");
    await expect.poll(() => v.autofillState()).toBe("failed");
    expect(await page.locator("form[data-webauthn-options]").getAttribute("data-webauthn-autofill-error")).toBe("NotAllowedError");
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("registers a passkey: an email, 'Create a passkey', and the user is signed in with the authenticator stored", async () => {
    await v.openSignIn("/registered");
    await page.getByLabel("Email").fill(EMAIL);
    await page.screenshot({ path: join(ARTIFACTS, "signin-passkeys.png"), fullPage: true });
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(`${origin}/registered`);

    expect((await v.session())?.user?.email).toBe(EMAIL);
    // The click first stopped the pending autofill request, then ran the modal ceremony.
    expect(v.calls).toEqual([
      { method: "get", mediation: "conditional" },
      { method: "create", mediation: "optional" },
    ]);
    expect(v.posted).toHaveLength(1);
    const form = v.posted[0]!;
    expect([...form.keys()].sort()).toEqual(["action", "callbackUrl", "csrfToken", "data"]);
    expect(form.get("action")).toBe("register");
    expect(JSON.parse(form.get("data")!)).toMatchObject({ type: "public-key", response: { attestationObject: expect.any(String) } });

    const [credential] = await v.virtualCredentials();
    expect(credential).toMatchObject({ rpId: "localhost", isResidentCredential: true, userName: EMAIL });
    const user = await adapter.getUserByEmail(EMAIL);
    const stored = await adapter.listAuthenticatorsByUserId(user!.id);
    expect(stored.map((a) => a.credentialID)).toEqual([credential!.credentialId]);
    expect(stored[0]?.counter).toBe(credential!.signCount);
  });

  it("signs out", async () => {
    await v.signOut();
  });

  it("signs in with 'Sign in with passkey', as the same user, and stores the new counter", async () => {
    // Presence simulation off while the page loads, so the autofill request cannot answer first.
    await v.presence(false);
    try {
      await v.openSignIn("/by-button");
      await expect.poll(() => v.autofillState()).toBe("pending");
      await v.presence(true);
      await page.getByRole("button", { name: "Sign in with passkey" }).click();
      await page.waitForURL(`${origin}/by-button`);
    } finally {
      await v.presence(true);
    }

    expect((await v.session())?.user?.email).toBe(EMAIL);
    expect(v.calls).toEqual([
      { method: "get", mediation: "conditional" },
      { method: "get", mediation: "optional" },
    ]);
    expect(v.posted.map((form) => form.get("action"))).toEqual(["authenticate"]);
    const [credential] = await v.virtualCredentials();
    const stored = await adapter.getAuthenticator(credential!.credentialId);
    expect(stored?.counter).toBe(credential!.signCount);
    expect(stored?.counter).toBeGreaterThan(1);
  });

  it("signs out again", async () => {
    await v.signOut();
  });

  it("signs in through autofill: the conditional request is answered with the passkey, no button pressed", async () => {
    const before = (await v.virtualCredentials())[0]!.signCount;
    await v.openSignIn("/by-autofill");
    // A person would focus the email field and pick the passkey from the suggestions; headless
    // Chromium has no suggestions to pick from, and its virtual authenticator answers the pending
    // conditional request by itself (usually before the field could even be focused).
    await page.waitForURL(`${origin}/by-autofill`);

    expect((await v.session())?.user?.email).toBe(EMAIL);
    expect(v.calls).toEqual([{ method: "get", mediation: "conditional" }]);
    expect(v.posted.map((form) => form.get("action"))).toEqual(["authenticate"]);
    expect((await v.virtualCredentials())[0]!.signCount).toBe(before + 1);
  });

  it("shows a refused ceremony (user verification failed) in the page's alert, re-enables the buttons and offers autofill again", async () => {
    await v.signOut();
    await v.presence(false);
    await v.cdp.send("WebAuthn.setUserVerified", { authenticatorId: v.authenticatorId, isUserVerified: false });
    try {
      await v.openSignIn("/never");
      await expect.poll(() => v.autofillState()).toBe("pending");
      await v.presence(true);
      expect(await page.getByRole("alert").count()).toBe(0);
      await page.getByRole("button", { name: "Sign in with passkey" }).click();
      const alert = page.getByRole("alert");
      await expect.poll(() => alert.isVisible()).toBe(true);
      expect(await alert.innerText()).toContain("The passkey request was cancelled or timed out. Please try again.");
      expect(await page.getByRole("button", { name: "Sign in with passkey" }).isEnabled()).toBe(true);
      // Autofill is offered again: a new conditional request after the failed modal one.
      await expect.poll(() => v.calls).toEqual([
        { method: "get", mediation: "conditional" },
        { method: "get", mediation: "optional" },
        { method: "get", mediation: "conditional" },
      ]);
      expect(new URL(page.url()).pathname).toBe("/auth/signin");
      expect(v.posted).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, "signin-passkey-error.png"), fullPage: true });
    } finally {
      await v.cdp.send("WebAuthn.setUserVerified", { authenticatorId: v.authenticatorId, isUserVerified: true });
      await v.presence(true);
    }
    expect(await v.session()).toBeNull();
  });

  it("asks for an email before creating a passkey for nobody", async () => {
    await v.presence(false);
    try {
      await v.openSignIn("/never");
      await page.getByRole("button", { name: "Create a passkey" }).click();
      const alert = page.getByRole("alert");
      await expect.poll(() => alert.isVisible()).toBe(true);
      expect(await alert.innerText()).toContain("Enter your email address to create a passkey.");
      expect(v.calls.filter((c) => c.method === "create")).toEqual([]);
    } finally {
      await v.presence(true);
    }
  });

  it("says why a passkey cannot be created for an address that already has an account, or is not one address", async () => {
    await adapter.createUser({ id: crypto.randomUUID(), email: "taken@example.com", name: null, image: null, emailVerified: new Date() });
    await v.presence(false);
    try {
      for (const [typed, said] of [
        ["taken@example.com", "already has an account"],
        // The field's own check (type=email) stops a list of addresses; a one-label domain gets through to ours.
        ["ada@localhost", "not one plain email address"],
      ] as const) {
        await v.openSignIn("/taken");
        await page.getByLabel("Email").fill(typed);
        await page.getByRole("button", { name: "Create a passkey" }).click();
        const alert = page.getByRole("alert");
        await expect.poll(() => alert.innerText().catch(() => "")).toContain(said);
        expect(v.calls.filter((c) => c.method === "create")).toEqual([]);
      }
    } finally {
      await v.presence(true);
    }
  });

  it("works in a browser without the WebAuthn JSON helpers, through the script's base64url fallback", async () => {
    const old = await Visitor.open(browser, origin, { withoutJsonHelpers: true });
    try {
      await old.openSignIn("/fallback");
      expect(
        await old.page.evaluate(() => [
          typeof (PublicKeyCredential as unknown as Record<string, unknown>).parseCreationOptionsFromJSON,
          typeof (PublicKeyCredential as unknown as Record<string, unknown>).parseRequestOptionsFromJSON,
          typeof (PublicKeyCredential.prototype as unknown as Record<string, unknown>).toJSON,
        ]),
      ).toEqual(["undefined", "undefined", "undefined"]);
      await old.page.getByLabel("Email").fill("ada@example.com");
      await old.page.getByRole("button", { name: "Create a passkey" }).click();
      await old.page.waitForURL(`${origin}/fallback`);
      expect((await old.session())?.user?.email).toBe("ada@example.com");
      const registration = JSON.parse(old.posted[0]!.get("data")!) as { id: string; rawId: string; response: Record<string, unknown> };
      expect(registration.rawId).toBe(registration.id);
      expect(Object.keys(registration.response).sort()).toEqual(["attestationObject", "clientDataJSON", "transports"]);

      await old.signOut();
      await old.presence(false);
      await old.openSignIn("/fallback-again");
      await expect.poll(() => old.autofillState()).toBe("pending");
      await old.presence(true);
      await old.page.getByRole("button", { name: "Sign in with passkey" }).click();
      await old.page.waitForURL(`${origin}/fallback-again`);
      expect((await old.session())?.user?.email).toBe("ada@example.com");
      const assertion = JSON.parse(old.posted[0]!.get("data")!) as { response: Record<string, unknown> };
      expect(Object.keys(assertion.response).sort()).toEqual(["authenticatorData", "clientDataJSON", "signature", "userHandle"]);
      expect(old.pageErrors).toEqual([]);
    } finally {
      await old.context.close();
    }
  });

  it("explains, rather than throws, that passkeys do not work on an IP address (127.0.0.1 instead of localhost)", async () => {
    const ipServer = createServer(toNodeListener((request) => Auth(request, config)));
    await new Promise<void>((resolve) => ipServer.listen(0, "127.0.0.1", resolve));
    const ipOrigin = `http://127.0.0.1:${(ipServer.address() as AddressInfo).port}`;
    const visitor = await Visitor.open(browser, ipOrigin);
    try {
      await visitor.openSignIn("/never");
      await visitor.page.getByLabel("Email").fill("ip@example.com");
      await visitor.page.getByRole("button", { name: "Create a passkey" }).click();
      const alert = visitor.page.getByRole("alert");
      await expect.poll(() => alert.isVisible()).toBe(true);
      expect(await alert.innerText()).toContain("Passkeys cannot be used on this address.");
      expect(visitor.posted).toEqual([]);
      expect(visitor.pageErrors).toEqual([]);
    } finally {
      await visitor.context.close();
      await new Promise<void>((resolve) => ipServer.close(() => resolve()));
    }
  });

  it("raised no error in the page and logged none on the server", () => {
    // The refusals above happened in the browser (or as a 400 for the options), never as a failed callback.
    expect(v.pageErrors).toEqual([]);
    expect(logger.codes("error")).toEqual([]);
  });
});

describe.runIf(hasChromium)("passkeys the server refuses, in Chromium", BROWSER_SUITE, () => {
  const { config, adapter, logger } = passkeyApp();
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, origin } = await serveApp(config));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** The alert's text once it shows. */
  async function alertText(page: Page): Promise<string> {
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.isVisible()).toBe(true);
    return alert.innerText();
  }

  it("says an address with an account must sign in another way first, before the device makes a passkey", async () => {
    await adapter.createUser({ id: "existing", email: "taken@example.com", emailVerified: null });
    const v = await Visitor.open(browser, origin);
    try {
      await v.openSignIn("/never");
      await v.page.getByLabel("Email for your passkey").fill("taken@example.com");
      await v.page.getByRole("button", { name: "Create a passkey" }).click();

      expect(await alertText(v.page)).toContain("This email already has an account. Sign in another way first, then add a passkey.");
      // Refused with the options, before any challenge: the device was never asked to make one.
      expect(v.calls.filter((call) => call.method === "create")).toEqual([]);
      expect(await v.virtualCredentials()).toEqual([]);
      expect(await adapter.listAuthenticatorsByUserId("existing")).toEqual([]);
      expect(await v.session()).toBeNull();
      expect(v.pageErrors).toEqual([]);
    } finally {
      await v.context.close();
    }
  });

  it("says a passkey is not registered here, removes it from the device, and does not try again by itself", async () => {
    const v = await Visitor.open(browser, origin);
    try {
      // A passkey the server knew once: registered, then its record deleted (an account cleanup).
      await v.openSignIn("/registered");
      await v.page.getByLabel("Email for your passkey").fill("forgotten@example.com");
      await v.page.getByRole("button", { name: "Create a passkey" }).click();
      await v.page.waitForURL(`${origin}/registered`);
      const user = await adapter.getUserByEmail("forgotten@example.com");
      await adapter.deleteUser!(user!.id);
      await v.context.clearCookies();
      expect(await v.virtualCredentials()).toHaveLength(1);

      // Autofill answers at once with that passkey (the virtual authenticator approves by itself),
      // which is what made the page retry in a loop: now the refusal ends it.
      await v.openSignIn("/never");
      await v.page.waitForURL((url) => url.searchParams.get("code") === "unknown_passkey");
      expect(await alertText(v.page)).toContain("This passkey is not registered on this site.");
      await expect.poll(() => v.page.locator("form[data-webauthn-options]").getAttribute("data-webauthn-signalled")).toBe("unknown");
      expect(await v.virtualCredentials()).toEqual([]);
      // One conditional request, one post: the page that reports the refusal starts no autofill of its own.
      expect(v.calls).toEqual([{ method: "get", mediation: "conditional" }]);
      expect(v.posted.map((form) => form.get("action"))).toEqual(["authenticate"]);
      expect(await v.autofillState()).toBe("paused");
      expect(await v.session()).toBeNull();
      expect(v.pageErrors).toEqual([]);
    } finally {
      await v.context.close();
    }
  });

  it("logged the refusals as warnings, no errors", () => {
    expect(logger.codes("error")).toEqual([]);
    expect(logger.codes("warn")).toEqual(expect.arrayContaining(["AccountNotLinked", "WebAuthnVerificationError"]));
  });
});
