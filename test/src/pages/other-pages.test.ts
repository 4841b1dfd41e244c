import { describe, expect, it } from "vitest";
import { renderErrorPage, renderSignOutPage, renderVerifyRequestPage } from "../../../src/pages/index.js";
import { BASE, CALLBACK, CSRF, lightTheme } from "./fixtures.js";
import { buttons, elements, formPostingTo, textOf } from "./html-helpers.js";

const signInUrl = `${BASE}/signin`;
const homeUrl = "https://app.example.com";

function errorPage(error: string): { status: number; html: string } {
  return renderErrorPage({ theme: lightTheme, error, signInUrl, homeUrl });
}

function links(html: string): string[] {
  return elements(html, "a").map((a) => a.attrs["href"] as string);
}

describe("the sign-out page", () => {
  const page = renderSignOutPage({ theme: lightTheme, csrfToken: CSRF, signOutUrl: `${BASE}/signout`, callbackUrl: CALLBACK });

  it("asks for confirmation and answers 200", () => {
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("Are you sure you want to sign out?");
    expect(page.html).toContain("<title>Sign out</title>");
  });

  it("posts to the sign-out URL with the CSRF token and the callback URL", () => {
    const form = formPostingTo(page.html, `${BASE}/signout`);
    expect(form.attrs["method"]).toBe("post");
    const hidden = elements(form.inner, "input").map((i) => i.attrs);
    expect(hidden).toEqual([
      { type: "hidden", name: "csrfToken", value: CSRF },
      { type: "hidden", name: "callbackUrl", value: CALLBACK },
    ]);
    expect(buttons(form.inner)).toEqual([{ attrs: { class: "btn", type: "submit" }, text: "Sign out" }]);
  });
});

describe("the error page", () => {
  it("answers 500 for a configuration error", () => {
    expect(errorPage("Configuration").status).toBe(500);
  });

  it("answers 403 when access was denied or a link could not be verified", () => {
    expect(errorPage("AccessDenied").status).toBe(403);
    expect(errorPage("Verification").status).toBe(403);
  });

  it("answers 400 for every other type, known or not", () => {
    for (const error of ["MissingCSRF", "OAuthCallbackError", "AdapterError", "Default", "nonsense", ""]) {
      expect(errorPage(error).status).toBe(400);
    }
  });

  it("marks the error type on the main element", () => {
    expect(errorPage("Configuration").html).toContain('<main class="card centered" data-error-type="Configuration">');
    expect(errorPage("Verification").html).toContain('data-error-type="Verification"');
    expect(errorPage("MissingCSRF").html).toContain('data-error-type="MissingCSRF"');
  });

  it("marks an unknown type as Default and never echoes it", () => {
    for (const error of ["nonsense", "constructor", "__proto__", "Configuration "]) {
      const { html } = errorPage(error);
      expect(html).toContain('data-error-type="Default"');
      expect(textOf(html)).toContain("Something went wrong");
    }
    expect(errorPage("HackerWasHere").html).not.toContain("HackerWasHere");
  });

  it("explains each main type with its own heading and message", () => {
    expect(textOf(errorPage("Configuration").html)).toMatch(/Server error.*problem with the server configuration/);
    expect(textOf(errorPage("AccessDenied").html)).toMatch(/Access denied.*do not have permission/);
    expect(textOf(errorPage("Verification").html)).toMatch(/Unable to sign in.*no longer valid/);
    expect(textOf(errorPage("MissingCSRF").html)).toMatch(/Unable to sign in.*form expired/);
  });

  it("offers to sign in again after a failed verification or denied access, and always links home", () => {
    expect(links(errorPage("Verification").html)).toEqual([signInUrl, homeUrl]);
    expect(links(errorPage("AccessDenied").html)).toEqual([signInUrl, homeUrl]);
    expect(textOf(errorPage("Verification").html)).toContain("Sign in again");
  });

  it("does not send the user back to sign in when the server itself is misconfigured", () => {
    expect(links(errorPage("Configuration").html)).toEqual([homeUrl]);
  });

  it("names the page after the error in its title", () => {
    expect(errorPage("AccessDenied").html).toContain("<title>Access denied</title>");
  });
});

describe("the verify-request page", () => {
  it("tells the user to check their email, answers 200 and links home", () => {
    const page = renderVerifyRequestPage({ theme: lightTheme, homeUrl });
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("Check your email");
    expect(text).toContain("A sign in link has been sent to your email address.");
    expect(links(page.html)).toEqual([homeUrl]);
  });

  it("shows the address the link went to", () => {
    const page = renderVerifyRequestPage({ theme: lightTheme, homeUrl, email: "jane@example.com" });
    expect(textOf(page.html)).toContain("jane@example.com");
  });
});

describe("every page", () => {
  const all = [
    renderSignOutPage({ theme: lightTheme, csrfToken: CSRF, signOutUrl: `${BASE}/signout`, callbackUrl: CALLBACK }).html,
    errorPage("Verification").html,
    renderVerifyRequestPage({ theme: lightTheme, homeUrl, email: "a@b.c" }).html,
  ];

  it("has one h1, the document basics, and no external assets", () => {
    for (const html of all) {
      expect(elements(html, "h1")).toHaveLength(1);
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<meta charset="utf-8">');
      expect(html).toContain('name="viewport"');
      expect(html).not.toMatch(/<script|<link|@import|@font-face|url\(/i);
    }
  });

  it("keeps decorative icons away from assistive technology", () => {
    for (const html of all) {
      for (const svg of elements(html, "svg")) expect(svg.attrs["aria-hidden"]).toBe("true");
    }
  });

  it("follows the colour scheme: both with a media query for auto, only one when forced", () => {
    const render = (colorScheme: "auto" | "light" | "dark"): string =>
      renderVerifyRequestPage({ theme: { colorScheme }, homeUrl }).html;
    expect(render("auto")).toContain("@media (prefers-color-scheme:dark)");
    expect(render("auto")).toContain('<meta name="color-scheme" content="light dark">');
    expect(render("light")).not.toContain("prefers-color-scheme");
    expect(render("light")).toContain("color-scheme:light;");
    expect(render("dark")).not.toContain("prefers-color-scheme");
    expect(render("dark")).toContain("color-scheme:dark;");
    expect(render("dark")).not.toContain("color-scheme:light;");
  });

  it("shows a visible outline on keyboard focus", () => {
    for (const html of all) expect(html).toMatch(/:focus-visible\{outline:2px solid var\(--focus\)/);
  });
});
