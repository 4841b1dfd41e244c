import { describe, expect, it } from "vitest";
import { renderSignInPage, type PageProvider } from "../../../src/pages/index.js";
import {
  BASE,
  CALLBACK,
  CSRF,
  acmeProvider,
  allProviders,
  credentialsProvider,
  emailProvider,
  githubProvider,
  lightTheme,
  logo,
  passkeyProvider,
  webauthnProvider,
} from "./fixtures.js";
import { webauthnScript } from "../../../src/pages/webauthn-script.js";
import { buttons, elements, formPostingTo, forms, labels, styleOf, textOf, visibleInputs } from "./html-helpers.js";

function signIn(overrides: Partial<Parameters<typeof renderSignInPage>[0]> = {}): string {
  return renderSignInPage({
    theme: lightTheme,
    providers: allProviders,
    csrfToken: CSRF,
    callbackUrl: CALLBACK,
    ...overrides,
  }).html;
}

function hiddenValues(inner: string): Record<string, string> {
  return Object.fromEntries(
    elements(inner, "input")
      .filter((e) => e.attrs["type"] === "hidden")
      .map((e) => [e.attrs["name"] as string, e.attrs["value"] as string]),
  );
}

describe("the sign-in page", () => {
  it("answers 200, also when it reports an error", () => {
    const base = { theme: lightTheme, providers: allProviders, csrfToken: CSRF, callbackUrl: CALLBACK };
    expect(renderSignInPage(base).status).toBe(200);
    expect(renderSignInPage({ ...base, error: "CredentialsSignin" }).status).toBe(200);
  });

  it("is a complete document with language, charset, viewport and title", () => {
    const html = signIn();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1">/);
    expect(html).toContain("<title>Sign in</title>");
    expect(elements(html, "h1")).toHaveLength(1);
  });

  it("loads nothing from elsewhere: no scripts, stylesheets, fonts or remote images", () => {
    const html = signIn();
    expect(html).not.toMatch(/<script|<link|@import|@font-face|url\(/i);
    for (const img of elements(html, "img")) expect(img.attrs["src"]).toMatch(/^data:image\//);
  });

  it("has a script only with passkeys: the library's own, inline, once per passkey provider", () => {
    const html = signIn({ providers: [...allProviders, passkeyProvider, webauthnProvider] });
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts).toHaveLength(2);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toBe("");
      expect(body).toBe(webauthnScript);
    }
    expect(html.replace(/<script>[\s\S]*?<\/script>/g, "")).not.toMatch(/<link|@import|url\(/i);
    // Whatever it fetches is relative to the page: no host is written into the script.
    expect(webauthnScript).not.toMatch(/https?:\/\//);
  });

  it("inlines a script that parses, and that nothing in it can end or comment out early", () => {
    // Parsed, not run: it only touches the DOM when a page runs it.
    expect(() => new Function(webauthnScript)).not.toThrow();
    expect(webauthnScript).not.toMatch(/<\/script|<!--|<script/i);
    // Inlined into every sign-in page with passkeys: kept small (13k since it tells the device about refused passkeys).
    expect(webauthnScript.length).toBeLessThan(13_000);
  });

  it("posts the credentials form to the provider's callback URL with the CSRF token and callback URL", () => {
    const form = formPostingTo(signIn(), credentialsProvider.callbackUrl);
    expect(form.attrs["method"]).toBe("post");
    expect(hiddenValues(form.inner)).toEqual({ csrfToken: CSRF, callbackUrl: CALLBACK });
  });

  it("gives every credential its own labelled input with the configured name, type, placeholder, autocomplete and required flag", () => {
    const form = formPostingTo(signIn(), credentialsProvider.callbackUrl);
    const inputs = visibleInputs(form.inner);
    const names = labels(form.inner);
    expect(inputs.map((i) => i.attrs["name"])).toEqual(["username", "password"]);
    const [username, password] = inputs.map((i) => i.attrs);
    expect(username).toMatchObject({ type: "text", placeholder: "jsmith", autocomplete: "username", required: "" });
    expect(password).toMatchObject({ type: "password", required: "" });
    expect(names.get(username?.["id"] as string)).toBe("Username");
    expect(names.get(password?.["id"] as string)).toBe("Password");
    expect(buttons(form.inner)).toEqual([{ attrs: { class: "btn", type: "submit" }, text: "Sign in with Password" }]);
  });

  it("labels a credential with its key when it has no label, and makes it a text field when no type is given", () => {
    const provider: PageProvider = { ...credentialsProvider, credentials: { otp: {} } };
    const form = formPostingTo(signIn({ providers: [provider] }), provider.callbackUrl);
    const [input] = visibleInputs(form.inner);
    expect(input?.attrs).toMatchObject({ name: "otp", type: "text" });
    expect(input?.source).not.toMatch(/required|placeholder|autocomplete/);
    expect(labels(form.inner).get(input?.attrs["id"] as string)).toBe("otp");
  });

  it("turns a credential type that is not a visible text-like field (hidden, submit, ...) into a text field", () => {
    const provider: PageProvider = {
      ...credentialsProvider,
      credentials: { a: { type: "hidden" }, b: { type: "submit" }, c: { type: "image" }, d: { type: "email" } },
    };
    const inputs = visibleInputs(formPostingTo(signIn({ providers: [provider] }), provider.callbackUrl).inner);
    expect(inputs.map((i) => i.attrs["type"])).toEqual(["text", "text", "text", "email"]);
  });

  it("suggests current-password autocompletion for a password field that names none", () => {
    const provider: PageProvider = { ...credentialsProvider, credentials: { pin: { type: "password" } } };
    const [input] = visibleInputs(formPostingTo(signIn({ providers: [provider] }), provider.callbackUrl).inner);
    expect(input?.attrs["autocomplete"]).toBe("current-password");
  });

  it("keeps element ids unique when two providers have fields with the same names", () => {
    const second: PageProvider = { ...credentialsProvider, id: "credentials", callbackUrl: `${BASE}/callback/other` };
    const html = signIn({ providers: [credentialsProvider, second, emailProvider, { ...emailProvider, signinUrl: "/x" }] });
    const ids = visibleInputs(html).map((i) => i.attrs["id"]);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("associates every visible input with exactly one label", () => {
    const html = signIn({ providers: [...allProviders, passkeyProvider] });
    const names = labels(html);
    const inputs = visibleInputs(html);
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(names.get(input.attrs["id"] as string)).toBeTruthy();
    const forCount = [...html.matchAll(/<label\s+for="/g)].length;
    expect(forCount).toBe(inputs.length);
  });

  it("posts the email form to the provider's sign-in URL with an email field for the address", () => {
    const form = formPostingTo(signIn(), emailProvider.signinUrl);
    expect(hiddenValues(form.inner)).toEqual({ csrfToken: CSRF, callbackUrl: CALLBACK });
    const [input] = visibleInputs(form.inner);
    expect(input?.attrs).toMatchObject({ name: "email", type: "email", autocomplete: "email", required: "" });
    expect(labels(form.inner).get(input?.attrs["id"] as string)).toBe("Email for a sign-in link");
    expect(buttons(form.inner).map((b) => b.text)).toEqual(["Sign in with Email"]);
  });

  it("prefills the email field with the address it was given", () => {
    const form = formPostingTo(signIn({ email: "jane@example.com" }), emailProvider.signinUrl);
    expect(visibleInputs(form.inner)[0]?.attrs["value"]).toBe("jane@example.com");
  });

  it("gives each oauth and oidc provider a form posting to its sign-in URL with a 'Sign in with' button", () => {
    const html = signIn();
    for (const provider of [githubProvider, acmeProvider]) {
      const form = formPostingTo(html, provider.signinUrl);
      expect(hiddenValues(form.inner)).toEqual({ csrfToken: CSRF, callbackUrl: CALLBACK });
      expect(visibleInputs(form.inner)).toEqual([]);
      const [button] = buttons(form.inner);
      expect(button?.text).toBe(`Sign in with ${provider.name}`);
      expect(button?.attrs["type"]).toBe("submit");
    }
  });

  it("fills a provider's button with its brand colour and shows its logo", () => {
    const html = signIn();
    const form = formPostingTo(html, githubProvider.signinUrl);
    const className = buttons(form.inner)[0]?.attrs["class"]?.split(" ").find((c) => c.startsWith("btn-p"));
    expect(className).toBeDefined();
    expect(styleOf(html)).toContain(`.${className}{--btn-bg:#24292f;--btn-text:#ffffff;`);
    const [img] = elements(form.inner, "img");
    expect(img?.attrs).toMatchObject({ src: githubProvider.style?.logo, alt: "" });
  });

  it("picks dark text for a light brand colour", () => {
    const html = signIn();
    const className = buttons(formPostingTo(html, acmeProvider.signinUrl).inner)[0]?.attrs["class"]?.split(" ")[1];
    expect(styleOf(html)).toContain(`.${className}{--btn-bg:#facc15;--btn-text:#111827;`);
  });

  it("uses the deprecated bg style as the brand colour when brandColor is absent", () => {
    const provider: PageProvider = { ...githubProvider, style: { bg: "#ffffff", text: "#000000" } };
    expect(styleOf(signIn({ providers: [provider] }))).toContain("--btn-bg:#ffffff;--btn-text:#000000;");
  });

  describe("with a passkey provider", () => {
    const page = (overrides: Partial<Parameters<typeof renderSignInPage>[0]> = {}) =>
      signIn({ providers: [githubProvider, passkeyProvider], ...overrides });

    it("has a form for the passkey callback that names the options URL, with the CSRF token and callback URL", () => {
      const form = formPostingTo(page(), passkeyProvider.callbackUrl);
      expect(form.attrs).toMatchObject({ method: "post", "data-webauthn-options": passkeyProvider.optionsUrl });
      expect(hiddenValues(form.inner)).toEqual({ csrfToken: CSRF, callbackUrl: CALLBACK });
    });

    it("asks for an optional email, labelled as the passkey's, described as needed only to create a passkey", () => {
      const html = page();
      const form = formPostingTo(html, passkeyProvider.callbackUrl);
      const [input] = visibleInputs(form.inner);
      expect(input?.attrs).toMatchObject({ name: "email", type: "email", placeholder: "email@example.com" });
      expect(input?.source).not.toMatch(/required/);
      expect(labels(form.inner).get(input?.attrs["id"] as string)).toBe("Email for your passkey");
      const hint = elements(form.inner, "p").find((p) => p.attrs["id"] === input?.attrs["aria-describedby"]);
      expect(hint).toBeDefined();
      expect(textOf(form.inner)).toContain("Optional to sign in with a passkey; needed to create one.");
    });

    it("offers passkeys in the email field's autofill when the provider has conditional UI, and only then", () => {
      const withAutofill = formPostingTo(page(), passkeyProvider.callbackUrl);
      expect(withAutofill.attrs).toHaveProperty("data-webauthn-autofill");
      expect(visibleInputs(withAutofill.inner)[0]?.attrs["autocomplete"]).toBe("username webauthn");

      const without = formPostingTo(signIn({ providers: [webauthnProvider] }), webauthnProvider.callbackUrl);
      expect(without.attrs).not.toHaveProperty("data-webauthn-autofill");
      expect(visibleInputs(without.inner)[0]?.attrs["autocomplete"]).toBe("username");
    });

    it("finds the options URL beside the sign-in URL when the provider does not name one", () => {
      const form = formPostingTo(signIn({ providers: [webauthnProvider] }), webauthnProvider.callbackUrl);
      expect(form.attrs["data-webauthn-options"]).toBe("https://app.example.com/auth/webauthn-options/webauthn");
    });

    it("has a 'Sign in with passkey' and a 'Create a passkey' button, naming the ceremony each asks for", () => {
      const form = formPostingTo(page(), passkeyProvider.callbackUrl);
      expect(buttons(form.inner).map((b) => [b.text, b.attrs["type"], b.attrs["name"], b.attrs["value"]])).toEqual([
        ["Sign in with passkey", "submit", "action", "authenticate"],
        ["Create a passkey", "submit", "action", "register"],
      ]);
    });

    it("prefills the email field with the address it was given", () => {
      const form = formPostingTo(page({ email: "jane@example.com" }), passkeyProvider.callbackUrl);
      expect(visibleInputs(form.inner)[0]?.attrs["value"]).toBe("jane@example.com");
    });

    it("says passkeys need JavaScript to a browser that runs none", () => {
      expect(page()).toMatch(/<noscript><p class="hint">Passkeys need JavaScript[^<]*<\/p><\/noscript>/);
    });

    it("keeps a hidden alert ready for the ceremony's errors when the page has none to show", () => {
      const html = page();
      const alerts = [...html.matchAll(/<div class="alert" role="alert"( hidden)?>/g)];
      expect(alerts.map((m) => m[1])).toEqual([" hidden"]);
      expect(styleOf(html)).toContain("[hidden]{display:none!important}");
      // With an error to show, that alert is the one, visible.
      const withError = page({ error: "WebAuthnVerificationError" });
      expect([...withError.matchAll(/role="alert"/g)]).toHaveLength(1);
      expect(withError).toContain('<div class="alert" role="alert">');
    });

    it("gives the second button an outline in the link colour instead of the accent fill", () => {
      const form = formPostingTo(page(), passkeyProvider.callbackUrl);
      expect(buttons(form.inner)[1]?.attrs["class"]).toBe("btn btn-secondary");
      expect(styleOf(page())).toMatch(/\.btn-secondary\{--btn-bg:transparent;--btn-text:var\(--link\)/);
      expect(styleOf(signIn())).not.toContain("btn-secondary");
    });

    it("fills the sign-in button with the provider's brand colour when it has one", () => {
      const branded = { ...passkeyProvider, style: { brandColor: "#24292f" } };
      const form = formPostingTo(signIn({ providers: [branded] }), branded.callbackUrl);
      expect(buttons(form.inner)[0]?.attrs["class"]).toMatch(/^btn btn-p0$/);
    });
  });

  it("lists the providers in the configured order, one section each", () => {
    const html = signIn();
    const sections = elements(html, "section").map((s) => s.attrs["data-provider"]);
    expect(sections).toEqual(["github", "acme", "credentials", "email"]);
    expect(forms(html).map((f) => f.attrs["action"])).toEqual(allProviders.map((p) =>
      p.type === "credentials" ? p.callbackUrl : p.signinUrl,
    ));
  });

  it("separates each form from its neighbours with an 'or' divider and keeps single buttons together", () => {
    const dividers = (providers: PageProvider[]): number => [...signIn({ providers }).matchAll(/class="divider"/g)].length;
    expect(dividers(allProviders)).toBe(2); // [github, acme] or [credentials] or [email]
    expect(dividers([credentialsProvider, emailProvider])).toBe(1);
    expect(dividers([githubProvider, acmeProvider])).toBe(0);
    // A passkey section has a field: it is a form, set apart like the others.
    expect(dividers([githubProvider, acmeProvider, passkeyProvider])).toBe(1);
    expect(dividers([passkeyProvider, credentialsProvider])).toBe(1);
    expect(dividers([githubProvider, credentialsProvider, acmeProvider])).toBe(2);
    expect(dividers([credentialsProvider])).toBe(0);
    expect(textOf(signIn())).toContain(" or ");
  });

  it("leaves out a provider of a type it does not know", () => {
    const odd = { ...githubProvider, id: "odd", type: "saml" } as unknown as PageProvider;
    const html = signIn({ providers: [odd, credentialsProvider] });
    expect(html).not.toContain('data-provider="odd"');
    expect(html).not.toContain('class="divider"');
  });

  it("says so when no provider can be shown", () => {
    expect(textOf(signIn({ providers: [] }))).toContain("No sign-in methods are configured.");
  });

  it("shows the theme logo above the card", () => {
    const html = signIn({ theme: { colorScheme: "light", logo } });
    const logoAt = html.indexOf('class="logo"');
    expect(logoAt).toBeGreaterThan(0);
    expect(logoAt).toBeLessThan(html.indexOf("<main"));
  });

  it("shows no message box when there is no error", () => {
    expect(signIn()).not.toContain('role="alert"');
  });
});

describe("the sign-in page's error message", () => {
  const messages: Record<string, RegExp> = {
    CredentialsSignin: /^Sign in failed\. Check the details you provided are correct\.$/,
    OAuthAccountNotLinked: /already linked to another sign-in method/,
    OAuthCallbackError: /sign-in service returned an error/,
    OAuthSignInError: /could not be started/,
    EmailSignInError: /email address is not valid/,
    AccessDenied: /do not have permission/,
    Verification: /no longer valid/,
    MissingCSRF: /form expired/,
    AccountNotLinked: /already has an account\. Sign in another way first, then add a passkey/,
    WebAuthnVerificationError: /passkey could not be verified/,
    SessionRequired: /sign in to see this page/,
  };

  function alertText(error: string, code?: string): string {
    const html = signIn({ error, ...(code === undefined ? {} : { code }) });
    // A malformed address is said beside the email field instead of above the form.
    const match = /<div class="alert" role="alert">([\s\S]*?)<\/div><\/div>/.exec(html) ?? /<p class="field-error"[^>]*>([\s\S]*?)<\/p>/.exec(html);
    if (!match) throw new Error("no alert");
    return textOf(match[1] as string);
  }

  for (const [type, message] of Object.entries(messages)) {
    it(`explains ${type} in words a user understands`, () => {
      expect(alertText(type)).toMatch(message);
    });
  }

  it("has a distinct message for each type", () => {
    const texts = Object.keys(messages).map((t) => alertText(t));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("shows a generic message for an unknown type, without echoing it", () => {
    const text = alertText("SomethingNew");
    expect(text).toBe("Sign in failed. Please try again.");
    expect(signIn({ error: "SomethingNew" })).not.toContain("SomethingNew");
  });

  it("shows a generic message for names that only exist on objects (toString, __proto__)", () => {
    expect(alertText("toString")).toBe("Sign in failed. Please try again.");
    expect(alertText("__proto__")).toBe("Sign in failed. Please try again.");
  });

  it("shows an application's error code when it is a short identifier, and no other text a link may carry", () => {
    expect(alertText("CredentialsSignin", "too_many_attempts")).toContain("Code: too_many_attempts");
    expect(signIn({ error: "CredentialsSignin", code: "<b>x</b>" })).not.toContain("Code:");
    expect(signIn({ error: "CredentialsSignin", code: "<b>x</b>" })).not.toContain("&lt;b&gt;x");
  });

  it("shows no code when there is no error to attach it to", () => {
    expect(signIn({ code: "credentials" })).not.toContain("Code:");
  });

  it("puts the message before the first form, so it is read first", () => {
    const html = signIn({ error: "CredentialsSignin" });
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf("<form"));
  });
});
