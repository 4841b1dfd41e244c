/**
 * The hosted email providers Auth.js apps use (Resend, SendGrid, Postmark, Forward Email, Loops,
 * Mailgun): each sends the sign-in
 * link with one authenticated POST to its service's API, takes its key from AUTH_<ID>_KEY, and the
 * link it sends signs in. The service is stood in for by the provider's `[customFetch]`, which
 * records the request and answers as the service documents it does.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import ForwardEmail from "../../../src/providers/catalog/forwardemail.js";
import Loops from "../../../src/providers/catalog/loops.js";
import Mailgun from "../../../src/providers/catalog/mailgun.js";
import Postmark from "../../../src/providers/catalog/postmark.js";
import Resend from "../../../src/providers/catalog/resend.js";
import SendGrid from "../../../src/providers/catalog/sendgrid.js";
import { customFetch } from "../../../src/symbols.js";
import type { EmailConfig } from "../../../src/types.js";
import { testConfig } from "../../helpers/config.js";
import { expectVerifyRequest, requestLink, sessionEmail, TestClient } from "./fixtures.js";

interface Sent {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

function service(status = 200) {
  const sent: Sent[] = [];
  const fetcher = async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    // Mailgun's API reads a form; the others read JSON.
    const body = (headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")
      ? Object.fromEntries(new URLSearchParams(String(init?.body)))
      : (JSON.parse(String(init?.body)) as Record<string, unknown>);
    sent.push({ url: String(input), headers, body });
    return new Response(status < 300 ? '{"id":"msg_1"}' : '{"message":"invalid key"}', { status, headers: { "content-type": "application/json" } });
  };
  return { sent, fetcher };
}

/** The link in the text part of the mail, wherever each service puts it. */
function linkOf(body: Record<string, unknown>): URL {
  // Loops renders the mail from its own template: the link is a data variable.
  const variables = body.dataVariables as { url?: string } | undefined;
  if (variables?.url) return new URL(variables.url);
  const text = String(body.text ?? body.TextBody ?? (body.content as Array<{ value: string }> | undefined)?.[0]?.value);
  return new URL(/https?:\/\/\S+/.exec(text)![0]);
}

const cases: Array<[string, (options: Record<string | symbol, unknown>) => EmailConfig, string, (sent: Sent) => void]> = [
  [
    "resend",
    Resend,
    "https://api.resend.com/emails",
    (sent) => {
      expect(sent.headers.get("authorization")).toBe("Bearer key-123");
      expect(sent.body).toMatchObject({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: expect.stringContaining("Sign in") });
      expect(sent.body.html).toEqual(expect.stringContaining("Sign in"));
    },
  ],
  [
    "sendgrid",
    SendGrid,
    "https://api.sendgrid.com/v3/mail/send",
    (sent) => {
      expect(sent.headers.get("authorization")).toBe("Bearer key-123");
      expect(sent.body).toMatchObject({ personalizations: [{ to: [{ email: "ada@example.test" }] }], from: { email: "Acme <auth@acme.test>" } });
    },
  ],
  [
    "postmark",
    Postmark,
    "https://api.postmarkapp.com/email",
    (sent) => {
      expect(sent.headers.get("x-postmark-server-token")).toBe("key-123");
      expect(sent.body).toMatchObject({ From: "Acme <auth@acme.test>", To: "ada@example.test", MessageStream: "outbound" });
    },
  ],
  [
    "forwardemail",
    ForwardEmail,
    "https://api.forwardemail.net/v1/emails",
    (sent) => {
      // The API token is the Basic user name, with an empty password.
      expect(sent.headers.get("authorization")).toBe(`Basic ${btoa("key-123:")}`);
      expect(sent.body).toMatchObject({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: expect.stringContaining("Sign in") });
      expect(sent.body.html).toEqual(expect.stringContaining("Sign in"));
    },
  ],
  [
    "mailgun",
    // The sending domain is the from address's.
    Mailgun,
    "https://api.mailgun.net/v3/acme.test/messages",
    (sent) => {
      expect(sent.headers.get("authorization")).toBe(`Basic ${btoa("api:key-123")}`);
      expect(sent.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
      expect(sent.body).toMatchObject({ from: "Acme <auth@acme.test>", to: "ada@example.test", subject: expect.stringContaining("Sign in") });
    },
  ],
  [
    "loops",
    (options) => Loops({ transactionalId: "cm4txn0example", ...options }),
    "https://app.loops.so/api/v1/transactional",
    (sent) => {
      expect(sent.headers.get("authorization")).toBe("Bearer key-123");
      expect(sent.body).toEqual({ transactionalId: "cm4txn0example", email: "ada@example.test", dataVariables: { url: expect.stringMatching(/^http/) } });
    },
  ],
];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.each(cases)("the %s provider", (id, factory, endpoint, checkRequest) => {
  it("sends the link with one authenticated POST, and the link signs in", async () => {
    const api = service();
    const client = new TestClient(
      testConfig({ adapter: MemoryAdapter(), providers: [factory({ apiKey: "key-123", from: "Acme <auth@acme.test>", [customFetch]: api.fetcher })] }),
    );
    expectVerifyRequest(await requestLink(client, "Ada@Example.test", { providerId: id }), id);
    expect(api.sent.map((s) => s.url)).toEqual([endpoint]);
    checkRequest(api.sent[0]!);
    await client.get(linkOf(api.sent[0]!.body).href);
    expect(await sessionEmail(client)).toBe("ada@example.test");
  });

  it(`takes its key from AUTH_${id.toUpperCase()}_KEY`, async () => {
    vi.stubEnv(`AUTH_${id.toUpperCase()}_KEY`, "key-123");
    const api = service();
    const client = new TestClient(testConfig({ adapter: MemoryAdapter(), providers: [factory({ from: "Acme <auth@acme.test>", [customFetch]: api.fetcher })] }));
    expectVerifyRequest(await requestLink(client, "ada@example.test", { providerId: id }), id);
    checkRequest(api.sent[0]!);
  });

  it("reports a refused send as a failed sign-in and leaves no usable token behind", async () => {
    const api = service(401);
    const adapter = MemoryAdapter();
    const client = new TestClient(testConfig({ adapter, providers: [factory({ apiKey: "wrong", [customFetch]: api.fetcher })] }));
    const response = await requestLink(client, "ada@example.test", { providerId: id });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBeTruthy();
    expect(api.sent).toHaveLength(1);
    await client.get(linkOf(api.sent[0]!.body).href);
    expect(await sessionEmail(client)).toBeNull();
  });
});

describe("hosted email providers without a key", () => {
  it("refuses to send, naming the variable to set", async () => {
    const api = service();
    const config = testConfig({ adapter: MemoryAdapter(), providers: [Resend({ [customFetch]: api.fetcher })] });
    const response = await requestLink(new TestClient(config), "ada@example.test", { providerId: "resend" });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBeTruthy();
    expect(api.sent).toEqual([]);
    const logged = config.logger.entries.filter((e) => e.level === "error").map((e) => inspect(e.message, { depth: 6 }));
    expect(logged.join("\n")).toContain("AUTH_RESEND_KEY");
  });
});

describe("service options", () => {
  it("sends Mailgun mail for an EU domain through the EU API, to the domain given", async () => {
    const api = service();
    const provider = Mailgun({ apiKey: "key-123", from: "auth@acme.test", region: "EU", domain: "mg.acme.test", [customFetch]: api.fetcher });
    const client = new TestClient(testConfig({ adapter: MemoryAdapter(), providers: [provider] }));
    expectVerifyRequest(await requestLink(client, "ada@example.test", { providerId: "mailgun" }), "mailgun");
    expect(api.sent.map((s) => s.url)).toEqual(["https://api.eu.mailgun.net/v3/mg.acme.test/messages"]);
    await client.get(linkOf(api.sent[0]!.body).href);
    expect(await sessionEmail(client)).toBe("ada@example.test");
  });

  it("refuses to send through Loops without a transactional email to send, naming the option", async () => {
    const api = service();
    const config = testConfig({ adapter: MemoryAdapter(), providers: [Loops({ apiKey: "key-123", [customFetch]: api.fetcher })] });
    const response = await requestLink(new TestClient(config), "ada@example.test", { providerId: "loops" });
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBeTruthy();
    expect(api.sent).toEqual([]);
    const logged = config.logger.entries.filter((e) => e.level === "error").map((e) => inspect(e.message, { depth: 6 }));
    expect(logged.join("\n")).toContain("transactionalId");
  });
});
