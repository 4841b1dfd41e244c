/**
 * What the email sign-in tests share: a configuration that mails through the test SMTP server, a
 * browser-like client that asks for a link and follows it, the links read back from a decoded mail,
 * and an adapter that records the verification tokens written to it.
 */
import { expect } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import Nodemailer, { type EmailUserConfig } from "../../../src/providers/email.js";
import type { Adapter, AuthConfig, VerificationToken } from "../../../src/types.js";
import { testConfig, type TestConfig } from "../../helpers/config.js";
import type { ParsedMail, TestSmtpServer } from "../../helpers/smtp.js";
import { TestClient } from "../../helpers/test-client.js";

export const FROM = "appauth tests <no-reply@example.test>";
export const PROVIDER_ID = "nodemailer";
export const DAY_SECONDS = 24 * 60 * 60;

/** An adapter whose verification-token writes and uses are recorded, over any base adapter. */
export type RecordingAdapter<A extends Adapter = Adapter> = A & {
  /** Every token record written, as written. */
  createdTokens: VerificationToken[];
  /** Every `useVerificationToken` call and what it returned. */
  usedTokens: { identifier: string; token: string; found: boolean }[];
};

export function recordTokens<A extends Adapter>(base: A): RecordingAdapter<A> {
  const createdTokens: VerificationToken[] = [];
  const usedTokens: RecordingAdapter["usedTokens"] = [];
  return {
    ...base,
    createdTokens,
    usedTokens,
    async createVerificationToken(token: VerificationToken) {
      createdTokens.push({ ...token });
      return base.createVerificationToken!(token);
    },
    async useVerificationToken(params: { identifier: string; token: string }) {
      const found = await base.useVerificationToken!(params);
      usedTokens.push({ ...params, found: found !== null });
      return found;
    },
  };
}

export interface EmailSetup {
  smtp: TestSmtpServer;
  adapter?: Adapter;
  provider?: EmailUserConfig;
  config?: Partial<AuthConfig>;
}

/** A configuration whose one provider is Nodemailer over the test SMTP server, on a memory adapter by default. */
export function emailConfig(setup: EmailSetup): TestConfig {
  return testConfig({
    adapter: setup.adapter ?? MemoryAdapter(),
    providers: [Nodemailer({ server: setup.smtp.server, from: FROM, ...setup.provider })],
    ...setup.config,
  });
}

export function location(response: Response): URL {
  const value = response.headers.get("location");
  if (!value) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(value);
}

/** Asserts a redirect to the error page (or the sign-in page) with `?error=<type>`. */
export function expectErrorRedirect(response: Response, type: string, page: "error" | "signin" = "error"): void {
  expect(response.status).toBe(302);
  const target = location(response);
  expect(target.pathname).toBe(`/auth/${page}`);
  expect(target.searchParams.get("error")).toBe(type);
}

/** POST /signin/nodemailer as the built-in form does: CSRF token, address, callback URL. */
export async function requestLink(
  client: TestClient,
  email: string,
  options: { callbackUrl?: string; headers?: Record<string, string>; providerId?: string } = {},
): Promise<Response> {
  const csrfToken = await client.csrf();
  const form: Record<string, string> = { csrfToken, email };
  if (options.callbackUrl !== undefined) form.callbackUrl = options.callbackUrl;
  return client.post(`/signin/${options.providerId ?? PROVIDER_ID}`, form, options.headers ? { headers: options.headers } : {});
}

/** Asserts the answer to a link request is the verify-request page. */
export function expectVerifyRequest(response: Response, providerId = PROVIDER_ID): void {
  expect(response.status).toBe(302);
  const target = location(response);
  expect(target.pathname).toBe("/auth/verify-request");
  // The address does not travel in the URL (the page-hint cookie carries it to the page).
  expect(Object.fromEntries(target.searchParams)).toEqual({ provider: providerId, type: "email" });
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };

/** The value of an HTML attribute as a browser reads it. */
export function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ENTITIES[name] ?? "");
}

/** The sign-in link in each part of a mail: the text part's URL and the HTML part's `href`. */
export function linksIn(mail: ParsedMail): { text: string; html: string } {
  const text = /https?:\/\/\S+/.exec(mail.text ?? "")?.[0];
  const html = /<a href="([^"]*)"/.exec(mail.html ?? "")?.[1];
  if (!text || !html) throw new Error(`no sign-in link in the mail "${mail.subject}"`);
  return { text, html: unescapeHtml(html) };
}

/** The sign-in link of a mail, after checking that its text and HTML parts carry the same one. */
export function linkIn(mail: ParsedMail): URL {
  const { text, html } = linksIn(mail);
  expect(html).toBe(text);
  return new URL(text);
}

/** The same link with one query parameter changed. */
export function withParam(link: URL, name: string, value: string): string {
  const changed = new URL(link);
  changed.searchParams.set(name, value);
  return changed.href;
}

/** Asks for a link for `email` and reads the mail that brings it (to `options.to`, default `email`). */
export async function mailedLink(
  client: TestClient,
  smtp: TestSmtpServer,
  email: string,
  options: { callbackUrl?: string; headers?: Record<string, string>; to?: string } = {},
): Promise<{ link: URL; mail: ParsedMail }> {
  const { to = email, ...request } = options;
  const response = await requestLink(client, email, request);
  expectVerifyRequest(response);
  const mail = await smtp.waitForMessage(to);
  return { link: linkIn(mail), mail };
}

/** Whether `client` holds a session, and for which address. */
export async function sessionEmail(client: TestClient): Promise<string | null> {
  const session = (await client.session()) as { user?: { email?: string } } | null;
  return session ? (session.user?.email ?? null) : null;
}

export { TestClient };
