import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type PageProvider,
  type PageTheme,
} from "../../../src/pages/index.js";
import { webauthnScript } from "../../../src/pages/webauthn-script.js";
import { CALLBACK, CSRF, credentialsProvider, emailProvider, githubProvider, lightTheme } from "./fixtures.js";
import { elements, styleOf } from "./html-helpers.js";

const SCRIPT = "<script>alert(1)</script>";
const ATTR_BREAKOUT = '"><img src=x onerror=alert(1)>';
const SINGLE_QUOTE_BREAKOUT = "' onmouseover='alert(1)";

const ALLOWED_TAGS = new Set(
  "html head meta title style body div main img h1 p section form input label button span a svg rect path circle noscript".split(" "),
);

const OWN_SCRIPT = `<script>${webauthnScript}</script>`;

/**
 * Every tag is one the pages write and no attribute is an event handler or a script URL. The one
 * script allowed is the library's own passkey script, exactly as shipped.
 */
function expectOnlyOwnMarkup(html: string): void {
  const withoutStyle = html.replace(/<style>[\s\S]*?<\/style>/, "<style></style>").split(OWN_SCRIPT).join("");
  for (const m of withoutStyle.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)) {
    expect(ALLOWED_TAGS, `unexpected <${m[1]}>`).toContain((m[1] as string).toLowerCase());
  }
  for (const m of withoutStyle.matchAll(/<[a-zA-Z][^>]*>/g)) {
    // Attribute names are what is left once the (double-quoted) values are blanked out.
    const names = m[0].replace(/"[^"]*"/g, '""');
    expect(names, `stray quote or bracket in ${m[0]}`).toMatch(/^<[a-zA-Z0-9]+(\s+[a-zA-Z0-9-]+(="")?)*\s*\/?>$/);
    for (const attr of names.matchAll(/\s([^\s"=<>]+)(?==|\s|>)/g)) {
      expect(attr[1], `event handler in ${m[0]}`).not.toMatch(/^on/i);
    }
  }
  for (const tag of ["a", "img", "form"]) {
    for (const el of elements(html, tag)) {
      for (const key of ["href", "src", "action", "data-webauthn-options"]) {
        const value = el.attrs[key];
        if (value !== undefined) expect(value.replace(/\s/g, "")).not.toMatch(/^(javascript|vbscript):|^data:(?!image\/)/i);
      }
    }
  }
  // The stylesheet is closed exactly once, so nothing escaped from it.
  expect(html.match(/<\/style/gi)).toHaveLength(1);
  expect(styleOf(html)).not.toMatch(/[<>]script|<\/|expression\(|url\(/i);
}

const hostileProvider = (overrides: Partial<PageProvider>): PageProvider => ({
  ...githubProvider,
  id: ATTR_BREAKOUT,
  name: SCRIPT,
  ...overrides,
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and in quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });

  it("leaves other text alone", () => {
    expect(escapeHtml("Jane Doe — ✓ 日本")).toBe("Jane Doe — ✓ 日本");
  });
});

describe("the pages with hostile input", () => {
  it("escapes provider names and ids, which are shown as text and written into attributes", () => {
    const html = renderSignInPage({
      theme: lightTheme,
      providers: [hostileProvider({})],
      csrfToken: CSRF,
      callbackUrl: CALLBACK,
    }).html;
    expect(html).toContain("Sign in with &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('data-provider="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expectOnlyOwnMarkup(html);
  });

  it("escapes credential keys, labels, placeholders and autocomplete hints", () => {
    const provider: PageProvider = {
      ...credentialsProvider,
      id: SINGLE_QUOTE_BREAKOUT,
      credentials: {
        [ATTR_BREAKOUT]: { label: SCRIPT, placeholder: ATTR_BREAKOUT, autocomplete: SINGLE_QUOTE_BREAKOUT, type: ATTR_BREAKOUT },
      },
    };
    const html = renderSignInPage({ theme: lightTheme, providers: [provider], csrfToken: CSRF, callbackUrl: CALLBACK }).html;
    const input = elements(html, "input").find((i) => i.attrs["type"] !== "hidden");
    expect(input?.attrs).toMatchObject({ name: ATTR_BREAKOUT, placeholder: ATTR_BREAKOUT, autocomplete: SINGLE_QUOTE_BREAKOUT, type: "text" });
    expect(input?.attrs["id"]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(html).toContain(">&lt;script&gt;alert(1)&lt;/script&gt;</label>");
    expectOnlyOwnMarkup(html);
  });

  it("escapes the CSRF token, the callback URL and the prefilled email, and shows no code that is not an identifier", () => {
    const html = renderSignInPage({
      theme: lightTheme,
      providers: [credentialsProvider, emailProvider],
      csrfToken: ATTR_BREAKOUT,
      callbackUrl: `https://app.example.com/?q=${ATTR_BREAKOUT}`,
      email: ATTR_BREAKOUT,
      error: "CredentialsSignin",
      code: SCRIPT,
    }).html;
    expect(elements(html, "input").filter((i) => i.attrs["name"] === "csrfToken").map((i) => i.attrs["value"])).toEqual([
      ATTR_BREAKOUT,
      ATTR_BREAKOUT,
    ]);
    // A code that is not a short identifier is not shown at all, escaped or not.
    expect(html).not.toContain("Code:");
    expectOnlyOwnMarkup(html);
  });

  it("never echoes the error parameter, whatever it holds", () => {
    const signIn = renderSignInPage({
      theme: lightTheme,
      providers: [],
      csrfToken: CSRF,
      callbackUrl: CALLBACK,
      error: SCRIPT,
    }).html;
    const error = renderErrorPage({ theme: lightTheme, error: SCRIPT, signInUrl: "/s", homeUrl: "/" }).html;
    for (const html of [signIn, error]) {
      expect(html).not.toContain("alert(1)");
      expectOnlyOwnMarkup(html);
    }
  });

  it("refuses javascript:, vbscript: and non-image data: logos, however they are disguised", () => {
    const logos = [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "\u0001javascript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
    ];
    for (const logo of logos) {
      const html = renderSignInPage({
        theme: { colorScheme: "light", logo },
        providers: [hostileProvider({ style: { logo } })],
        csrfToken: CSRF,
        callbackUrl: CALLBACK,
      }).html;
      expect(elements(html, "img"), logo).toEqual([]);
      expectOnlyOwnMarkup(html);
    }
  });

  it("keeps http(s) and data:image logos, escaped so they cannot leave the attribute", () => {
    const logo = `https://cdn.example.com/logo.svg?a=1&b="><script>`;
    const html = renderSignInPage({
      theme: { colorScheme: "light", logo },
      providers: [hostileProvider({ style: { logo: 'data:image/svg+xml,<svg onload="alert(1)">' } })],
      csrfToken: CSRF,
      callbackUrl: CALLBACK,
    }).html;
    expect(elements(html, "img").map((i) => i.attrs["src"])).toEqual([logo, 'data:image/svg+xml,<svg onload="alert(1)">']);
    expect(html).toContain('src="https://cdn.example.com/logo.svg?a=1&amp;b=&quot;&gt;&lt;script&gt;"');
    expectOnlyOwnMarkup(html);
  });

  it("does not link or post to script URLs given as page URLs", () => {
    const bad = "javascript:alert(1)";
    const pages = [
      renderSignInPage({
        theme: lightTheme,
        providers: [hostileProvider({ signinUrl: bad }), { ...credentialsProvider, callbackUrl: bad }],
        csrfToken: CSRF,
        callbackUrl: CALLBACK,
      }).html,
      renderSignOutPage({ theme: lightTheme, csrfToken: CSRF, signOutUrl: bad, callbackUrl: CALLBACK }).html,
      renderErrorPage({ theme: lightTheme, error: "Verification", signInUrl: bad, homeUrl: bad }).html,
      renderVerifyRequestPage({ theme: lightTheme, homeUrl: bad }).html,
    ];
    for (const html of pages) {
      expect(html).not.toContain("javascript:");
      expectOnlyOwnMarkup(html);
    }
  });

  it("escapes the email on the verify-request page and the tokens on the sign-out page", () => {
    const verify = renderVerifyRequestPage({ theme: lightTheme, homeUrl: "/", email: SCRIPT }).html;
    expect(verify).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const signOut = renderSignOutPage({ theme: lightTheme, csrfToken: ATTR_BREAKOUT, signOutUrl: "/signout", callbackUrl: ATTR_BREAKOUT }).html;
    for (const html of [verify, signOut]) expectOnlyOwnMarkup(html);
  });

  it("rejects a brand colour that tries to break out of the stylesheet and falls back to the default", () => {
    const attacks = [
      "red;}</style><script>alert(1)</script>",
      "red;} body{display:none",
      "#fff;background:url(https://evil.example/x)",
      "expression(alert(1))",
      "rgb(0,0,0);}</style>",
      "var(--x)",
      "#12345g",
      "#1234",
      "rgb(256, 0, 0)",
      "rgba(0, 0, 0, 0)",
      "transparent",
      "currentcolor",
      "red\n}",
      "",
    ];
    for (const brandColor of attacks) {
      const theme: PageTheme = { colorScheme: "light", brandColor, buttonText: brandColor };
      const html = renderSignInPage({
        theme,
        providers: [hostileProvider({ style: { brandColor, text: brandColor } }), credentialsProvider],
        csrfToken: CSRF,
        callbackUrl: CALLBACK,
      }).html;
      expect(styleOf(html), brandColor).toContain("--accent-bg:#4f46e5;--accent-text:#ffffff");
      expect(styleOf(html)).not.toContain(".btn-p0");
      expectOnlyOwnMarkup(html);
    }
  });

  it("writes a valid brand colour into the stylesheet only in its #rrggbb form", () => {
    for (const [brandColor, hex] of [
      ["#0F766E", "#0f766e"],
      ["#abc", "#aabbcc"],
      ["rgb(15, 118, 110)", "#0f766e"],
      ["rgb(15 118 110)", "#0f766e"],
      ["hsl(0, 100%, 25%)", "#800000"],
      ["RebeccaPurple", "#663399"],
      ["  teal ", "#008080"],
    ] as const) {
      const html = renderSignOutPage({ theme: { colorScheme: "light", brandColor }, csrfToken: CSRF, signOutUrl: "/o", callbackUrl: "/" }).html;
      expect(styleOf(html), brandColor).toContain(`--accent-bg:${hex};`);
    }
  });

  it("produces only its own markup for any text in any field (property)", () => {
    const nasty = fc.string({
      unit: fc.constantFrom("<", ">", '"', "'", "&", "/", "=", " ", "\t", "\n", ":", ";", "}", "a", "script", "style", "on", "javascript:", "data:"),
      maxLength: 30,
    });
    fc.assert(
      fc.property(nasty, nasty, nasty, nasty, (a, b, c, d) => {
        const provider = (type: PageProvider["type"]): PageProvider => ({
          id: a,
          name: b,
          type,
          signinUrl: c,
          callbackUrl: d,
          style: { brandColor: a, logo: c, text: d },
          credentials: { [a]: { label: b, placeholder: c, autocomplete: d, type: a } },
        });
        const theme: PageTheme = { colorScheme: "auto", brandColor: b, buttonText: c, logo: d };
        const pages = [
          renderSignInPage({
            theme,
            providers: (["oauth", "oidc", "email", "credentials", "webauthn"] as const).map(provider),
            csrfToken: a,
            callbackUrl: b,
            error: c,
            code: d,
            email: a,
          }).html,
          renderSignOutPage({ theme, csrfToken: a, signOutUrl: b, callbackUrl: c }).html,
          renderErrorPage({ theme, error: a, signInUrl: b, homeUrl: c }).html,
          renderVerifyRequestPage({ theme, homeUrl: a, email: b }).html,
        ];
        for (const html of pages) expectOnlyOwnMarkup(html);
      }),
      { numRuns: 200 },
    );
  });
});
