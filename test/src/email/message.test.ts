/**
 * The sign-in mail as a person receives it: a text part and an HTML part with the same link, the
 * theme's brand colour on the button, and nothing that came with the request (host, address)
 * written into the HTML unescaped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../../src/providers/email.js";
import type { SendVerificationRequestParams } from "../../../src/types.js";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp.js";
import { emailConfig, FROM, linkIn, linksIn, mailedLink, requestLink, sessionEmail, TestClient } from "./fixtures.js";

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.close();
});

/** The opening tags of the HTML, each with its attribute names. */
function tags(html: string): { name: string; attributes: string[]; rest: string }[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)((?:\s[^>]*)?)>/gi)].map((m) => {
    const inside = m[2] ?? "";
    const attributes = [...inside.matchAll(/\s([a-z-]+)(?:="[^"]*")?/gi)].map((a) => a[1]!.toLowerCase());
    // Whatever is not a well-formed name="value" pair: markup that escaped its attribute.
    const rest = inside.replace(/\s[a-z-]+(?:="[^"]*")?/gi, "").trim();
    return { name: m[1]!.toLowerCase(), attributes, rest };
  });
}

/** Every `&` in the HTML starts one of the entities the library writes. */
function strayAmpersands(html: string): string[] {
  return html.match(/&(?!(?:amp|lt|gt|quot|#39|#x27);)[^\s]{0,8}/g) ?? [];
}

describe("the sign-in mail", () => {
  it("has a text part and an HTML part, both carrying the link that signs in", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { mail, link } = await mailedLink(client, smtp, "parts@example.test");

    expect(mail.headers.get("content-type")).toMatch(/^multipart\/alternative;/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html; charset=utf-8/i);
    expect(mail.text).toContain(link.href);
    expect(mail.text).not.toMatch(/<[a-z]/i);
    expect(mail.html).toMatch(/^<!doctype html>/i);
    expect(mail.subject).toBe("Sign in to localhost:3000");
    expect(mail.from).toBe(FROM);

    await client.get(link.href);
    expect(await sessionEmail(client)).toBe("parts@example.test");
  });

  it("colours the HTML button with the theme's brand colour", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { theme: { brandColor: "#0f766e" } } }));
    const { mail } = await mailedLink(client, smtp, "brand@example.test");
    expect(mail.html).toMatch(/<a href="[^"]*"[^>]*style="[^"]*background:#0f766e;/);
  });

  it("writes a named brand colour as its hex value", async () => {
    const client = new TestClient(emailConfig({ smtp, config: { theme: { brandColor: "RebeccaPurple" } } }));
    const { mail } = await mailedLink(client, smtp, "named@example.test");
    expect(mail.html).toContain("background:#663399;");
  });

  it("keeps a brand colour that is no colour out of the mail, using the default instead", async () => {
    const hostile = "red;background-image:url(https://evil.test/t.png)";
    const client = new TestClient(emailConfig({ smtp, config: { theme: { brandColor: hostile } } }));
    const { mail } = await mailedLink(client, smtp, "nocolour@example.test");
    expect(mail.html).not.toContain("evil.test");
    expect(mail.html).toMatch(/background:#[0-9a-f]{6};/);
  });

  it("escapes the host in the HTML, whether it came from the Host or from X-Forwarded-Host", async () => {
    // A host may legally hold & and ' (the URL parser keeps them); in HTML they must become entities.
    const viaHost = new TestClient(emailConfig({ smtp }), "http://shop&co's.example.test/auth");
    const viaForwarded = new TestClient(emailConfig({ smtp }));
    for (const [client, headers] of [
      [viaHost, {}],
      [viaForwarded, { "x-forwarded-host": "shop&co's.example.test" }],
    ] as const) {
      const { mail, link } = await mailedLink(client, smtp, "host@example.test", { headers });
      expect(link.host).toBe("shop&co's.example.test");
      expect(mail.subject).toBe("Sign in to shop&co's.example.test");
      expect(mail.html).toContain("Sign in to <strong>shop&amp;co&#39;s.example.test</strong>");
      expect(strayAmpersands(mail.html!)).toEqual([]);
      expect(mail.html).not.toContain("co's");
      // The HTML's link, read as a browser reads the attribute, is the text part's link.
      const { text, html } = linksIn(mail);
      expect(html).toBe(text);
    }
  });

  it("escapes the address in the HTML when it carries characters that HTML gives a meaning", async () => {
    // & and ' are allowed in the local part of an address.
    const address = "o'brien&co@example.test";
    const client = new TestClient(emailConfig({ smtp }));
    const { mail, link } = await mailedLink(client, smtp, address);
    expect(mail.to).toEqual([address]);
    expect(link.searchParams.get("email")).toBe(address);
    expect(strayAmpersands(mail.html!)).toEqual([]);
    expect(mail.html).not.toContain("o'brien");

    await client.get(link.href);
    expect(await sessionEmail(client)).toBe(address);
  });

  it("writes no markup beyond its own: every tag is one the template writes, with well-formed attributes", async () => {
    const client = new TestClient(emailConfig({ smtp }));
    const { mail } = await mailedLink(client, smtp, "tags@example.test", {
      headers: { "x-forwarded-host": 'x"onmouseover=alert(1)".example.test' },
    });
    const found = tags(mail.html!);
    expect(new Set(found.map((t) => t.name))).toEqual(new Set(["html", "head", "meta", "title", "body", "table", "tr", "td", "strong", "a"]));
    for (const tag of found) expect(tag.rest, `<${tag.name}>`).toBe("");
    expect(found.find((t) => t.name === "a")?.attributes).toEqual(["href", "target", "style"]);
  });

  it("is the mail a custom sendVerificationRequest builds instead, given the link, address, expiry, theme and request", async () => {
    const calls: SendVerificationRequestParams[] = [];
    const provider = {
      sendVerificationRequest: async (params: SendVerificationRequestParams) => {
        calls.push(params);
        // A sender of its own, still through SMTP, in plain text only.
        const nodemailer = await import("nodemailer");
        await nodemailer.default.createTransport(smtp.server).sendMail({
          to: params.identifier,
          from: FROM,
          subject: "Your link",
          text: params.url,
        });
      },
    };
    const client = new TestClient(emailConfig({ smtp, provider, config: { theme: { brandColor: "#123456" } } }));
    const response = await requestLink(client, "custom@example.test", { headers: { "user-agent": "test-agent" } });
    expect(response.status).toBe(302);
    const mail = await smtp.waitForMessage("custom@example.test");
    expect(mail.html).toBeUndefined();
    expect(mail.text?.trim()).toBe(calls[0]?.url);

    const [params] = calls;
    expect(params).toMatchObject({ identifier: "custom@example.test", theme: { brandColor: "#123456" } });
    expect(params!.provider.id).toBe("nodemailer");
    expect(params!.request.headers.get("user-agent")).toBe("test-agent");
    expect(new URL(params!.url).searchParams.get("token")).toBe(params!.token);
    expect(params!.expires.getTime()).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);

    await client.get(params!.url);
    expect(await sessionEmail(client)).toBe("custom@example.test");
  });
});

describe("Nodemailer()", () => {
  it("is an email provider with the id nodemailer, 24 hours maxAge, and the options given", () => {
    const provider = Nodemailer({ server: smtp.server, from: FROM });
    expect(provider).toMatchObject({ id: "nodemailer", type: "email", maxAge: 24 * 60 * 60, from: FROM, server: smtp.server });
  });

  it("mails through a connection URL as well as through options", async () => {
    const server = `smtp://${smtp.host}:${smtp.port}?ignoreTLS=true`;
    const client = new TestClient(emailConfig({ smtp, provider: { server } }));
    const { mail } = await mailedLink(client, smtp, "url@example.test");
    expect(linkIn(mail).searchParams.get("email")).toBe("url@example.test");
  });
});
