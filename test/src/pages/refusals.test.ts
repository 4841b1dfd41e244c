/**
 * What a person sees after a refusal: what they typed is still there (never a password), the error
 * sits on the field it is about, a cancel reads as a cancel, and the pages say where they are (the
 * application's name, the address a link went to) and how to get back.
 */
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { renderErrorPage, renderSignInPage, renderVerifyRequestPage } from "../../../src/pages/index.js";
import { Email } from "../../../src/providers/email.js";
import { BASE_URL, ORIGIN, passwordProvider, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { CALLBACK, CSRF, allProviders, lightTheme } from "./fixtures.js";
import { elements, formPostingTo, textOf, visibleInputs } from "./html-helpers.js";

function signIn(overrides: Partial<Parameters<typeof renderSignInPage>[0]> = {}): string {
  return renderSignInPage({ theme: lightTheme, providers: allProviders, csrfToken: CSRF, callbackUrl: CALLBACK, ...overrides }).html;
}

/** Follows a refusal's redirect to the sign-in page it names, with the client's cookies. */
async function pageAfter(client: TestClient, response: Response): Promise<string> {
  expect(response.status).toBe(302);
  return (await client.get(response.headers.get("location")!)).text();
}

describe("a malformed email address", () => {
  const config = () =>
    testConfig({ adapter: MemoryAdapter(), providers: [passwordProvider(), Email({ sendVerificationRequest: async () => {} })] });

  it("comes back in its field, marked invalid and described by a message that says the address is malformed", async () => {
    const client = new TestClient(config());
    const refused = await client.post("/signin/email", { csrfToken: await client.csrf(), email: "ada@example..com" });
    const html = await pageAfter(client, refused);
    const [input] = visibleInputs(formPostingTo(html, `${BASE_URL}/signin/email`).inner);
    expect(input?.attrs).toMatchObject({ name: "email", value: "ada@example..com", "aria-invalid": "true" });
    const description = elements(html, "p").find((p) => p.attrs["id"] === input?.attrs["aria-describedby"]);
    expect(description?.attrs["class"]).toBe("field-error");
    const text = textOf(html.slice(html.indexOf(description!.source)));
    expect(text).toMatch(/^That email address is not valid\./);
    expect(html).not.toMatch(/could not be sent/);
    // Said at the field, so not said twice above the form.
    expect(html).not.toContain('role="alert"');
    expect(input?.source).toContain("autofocus");
  });

  it("escapes what was typed when it comes back", () => {
    const html = signIn({ error: "EmailSignInError", kept: { provider: "email", field: "email", value: '"><script>alert(1)</script>' } });
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe("a wrong password", () => {
  const typedUsername = () =>
    testConfig({
      providers: [passwordProvider({ credentials: { username: { label: "Username", type: "text" }, password: { label: "Password", type: "password" } } })],
    });

  it("keeps a username the form declares as text, empties the password, and shows no 'Code: credentials'", async () => {
    const client = new TestClient(typedUsername());
    const refused = await client.signIn("ada", "hunter2");
    expect(refused.headers.get("location")).not.toContain("ada");
    const html = await pageAfter(client, refused);
    const inputs = visibleInputs(formPostingTo(html, `${BASE_URL}/callback/credentials`).inner);
    expect(inputs.map((i) => [i.attrs["name"], i.attrs["value"]])).toEqual([
      ["username", "ada"],
      ["password", undefined],
    ]);
    expect(html).not.toContain("hunter2");
    expect(textOf(html)).toContain("Sign in failed. Check the details you provided are correct.");
    expect(textOf(html)).not.toContain("Code:");
  });

  it("shows the username once: the page after it is empty again", async () => {
    const client = new TestClient(typedUsername());
    const refused = await client.signIn("ada", "hunter2");
    await pageAfter(client, refused);
    const again = await (await client.get(refused.headers.get("location")!)).text();
    expect(visibleInputs(formPostingTo(again, `${BASE_URL}/callback/credentials`).inner)[0]?.attrs["value"]).toBeUndefined();
  });

  it("keeps nothing of a form whose fields declare no type (it cannot tell an account name from a code)", async () => {
    const client = new TestClient(testConfig());
    const html = await pageAfter(client, await client.signIn("ada", "hunter2"));
    const inputs = visibleInputs(formPostingTo(html, `${BASE_URL}/callback/credentials`).inner);
    expect(inputs.map((i) => i.attrs["value"])).toEqual([undefined, undefined]);
    expect(html).not.toContain("ada");
  });

  it("still shows a code the application chose", () => {
    expect(textOf(signIn({ error: "CredentialsSignin", code: "account_locked" }))).toContain("Code: account_locked");
  });

  it("shows no sentence a link put in the code: only a short identifier is shown as text", () => {
    const html = textOf(signIn({ error: "CredentialsSignin", code: "Your account is locked. Call 555-0100" }));
    expect(html).not.toContain("555");
    expect(html).not.toContain("Code:");
    expect(textOf(signIn({ error: "CredentialsSignin", code: "123456" }))).not.toContain("123456");
  });

  it("shows no code an error of another type carries", () => {
    expect(textOf(signIn({ error: "OAuthCallbackError", code: "call 555-0100 for help" }))).not.toContain("555");
  });
});

describe("a cancel at the provider (error=access_denied)", () => {
  it("reads as a cancel: a status note, not an alert", () => {
    const html = signIn({ error: "OAuthCallbackError", code: "access_denied" });
    expect(html).not.toContain('role="alert"');
    expect(html).toContain('<div class="alert notice" role="status">');
    expect(textOf(html)).toContain("Sign-in was cancelled.");
    expect(textOf(html)).not.toMatch(/returned an error|Code:/);
  });

  it("is still a failure for other provider errors", () => {
    const html = signIn({ error: "OAuthCallbackError" });
    expect(html).toContain('<div class="alert" role="alert">');
    expect(textOf(html)).toContain("The sign-in service returned an error.");
  });
});

describe("the sign-in page's frame", () => {
  it("names the application and links back to it", () => {
    const html = signIn({ theme: { ...lightTheme, brandName: "Acme <Shop>" }, homeUrl: "https://shop.example/" });
    expect(html).toContain("<title>Sign in to Acme &lt;Shop&gt;</title>");
    expect(html).toContain('<h1 class="title">Sign in to Acme &lt;Shop&gt;</h1>');
    expect(html).toContain('<a href="https://shop.example/">← Back to Acme &lt;Shop&gt;</a>');
  });

  it("says 'Sign in' and 'Back to the site' without a brand name", () => {
    const html = signIn({ homeUrl: "https://shop.example/" });
    expect(html).toContain('<h1 class="title">Sign in</h1>');
    expect(textOf(html)).toContain("← Back to the site");
  });

  it("links back to the site's home through the handler, named by theme.brandName", async () => {
    const html = await (await new TestClient(testConfig({ theme: { brandName: "Acme" } })).get("/signin")).text();
    expect(html).toContain(`<a href="${ORIGIN}">← Back to Acme</a>`);
  });
});

describe("the verify-request page", () => {
  it("names the address the link went to, escaped", () => {
    const html = renderVerifyRequestPage({ theme: lightTheme, homeUrl: "/", email: "ada<b>@example.com" }).html;
    expect(textOf(html)).toContain("A sign in link has been sent to ada<b>@example.com");
    expect(html).toContain("ada&lt;b&gt;@example.com");
  });

  it("names it after a real link request", async () => {
    const client = new TestClient(testConfig({ adapter: MemoryAdapter(), providers: [Email({ sendVerificationRequest: async () => {} })] }));
    const sent = await client.post("/signin/email", { csrfToken: await client.csrf(), email: "Grace@Example.com" });
    const html = await (await client.get(sent.headers.get("location")!)).text();
    expect(textOf(html)).toContain("A sign in link has been sent to grace@example.com");
  });
});

describe("the error page", () => {
  it("shows a developer's detail when given one, and the status asked for", () => {
    const page = renderErrorPage({ theme: lightTheme, error: "InvalidProvider", signInUrl: "/auth/signin", homeUrl: "/", status: 404, detail: 'No provider "x".' });
    expect(page.status).toBe(404);
    expect(textOf(page.html)).toContain('No provider "x".');
  });
});
