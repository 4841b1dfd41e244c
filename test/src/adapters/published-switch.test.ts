/**
 * Switching on the same database (issue 16): a real @auth/core signs people in through each published
 * adapter — OpenID Connect at the test OP (one person without an email) and an email link — with
 * database sessions; then appauth, given the same adapter, reads the sessions Auth.js stored (the
 * people stay signed in), and signs the same people in again as the users Auth.js created, through
 * the accounts Auth.js linked.
 */
import type { AuthConfig as AuthJsConfig } from "@auth/core";
import type { OIDCConfig } from "@auth/core/providers";
import type { Profile } from "@auth/core/types";
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters";
import NodemailerJs from "@auth/core/providers/nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../../src/providers/email.js";
import type { Adapter } from "../../../src/types.js";
import { AuthJsBrowser } from "../../helpers/authjs-browser.js";
import { SECRET, testConfig, type TestConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { FROM, mailedLink } from "../email/fixtures.js";
import { loggedErrors, oidcProvider, setsSession, signInThroughOp } from "../oauth/fixtures.js";
import { PUBLISHED_ADAPTERS, type PublishedAdapterInstance } from "./published-schemas.js";
import { servicesFor } from "./published-services.js";
import { postgresAvailability } from "./servers.js";

const OP_ACCOUNTS = {
  grace: { email: "grace@example.com", email_verified: true, name: "Grace Hopper" },
  "no-mail": { name: "Nobody's Address" },
};

const postgresSkip = await postgresAvailability();

const services = servicesFor(OP_ACCOUNTS);

/** Auth.js v5 on `adapter` with database sessions: the test OP, and email links handed to `mailed`. */
function authJsConfig(adapter: Adapter, mailed: (url: string) => void): AuthJsConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: adapter as unknown as AuthJsAdapter,
    session: { strategy: "database" },
    providers: [
      // The same provider as appauth's below (Auth.js reads the same fields: id, type, issuer, client, checks).
      oidcProvider(services.op) as unknown as OIDCConfig<Profile>,
      NodemailerJs({ server: "smtp://127.0.0.1:1", from: FROM, sendVerificationRequest: ({ url }) => mailed(url) }),
    ],
  };
}

/** A person signs in with Auth.js at the OP; the browser, holding Auth.js's session cookie. */
async function authJsOidcSignIn(config: AuthJsConfig, accountId: string): Promise<AuthJsBrowser> {
  const browser = new AuthJsBrowser(config);
  const csrfToken = await browser.csrf();
  const start = await browser.fetch("/auth/signin/oidc", { method: "POST", form: { csrfToken } });
  const outcome = await services.op.authorize(start.headers.get("location")!, { accountId });
  if (outcome.method !== "GET") throw new Error("expected a query-mode callback");
  const back = new URL(outcome.url);
  await browser.fetch(back.pathname + back.search);
  return browser;
}

/** appauth's browser holding what Auth.js's held: its session cookie. */
function carriedOver(from: AuthJsBrowser, config: TestConfig): TestClient {
  const client = new TestClient(config);
  for (const [name, raw] of from.sessionCookies()) client.setCookie(name, raw);
  return client;
}

for (const published of PUBLISHED_ADAPTERS) {
  const skip = published.postgres ? postgresSkip : undefined;
  describe.skipIf(skip !== undefined)(`${published.name}: from Auth.js to appauth on the same store`, () => {
    let instance: PublishedAdapterInstance;
    beforeAll(async () => {
      instance = await published.start();
    });
    afterAll(async () => {
      await instance?.close();
    });

    it("keeps the people Auth.js signed in signed in, and signs them in again as the same users", async () => {
      let link = "";
      const authjs = authJsConfig(instance.adapter, (url) => (link = url));
      const config = testConfig({
        adapter: instance.adapter,
        session: { strategy: "database" },
        providers: [oidcProvider(services.op), Nodemailer({ server: services.smtp.server, from: FROM })],
      });

      // Under Auth.js: two people at the OP, one by email.
      const grace = await authJsOidcSignIn(authjs, "grace");
      const nobody = await authJsOidcSignIn(authjs, "no-mail");
      const reader = new AuthJsBrowser(authjs);
      await reader.fetch("/auth/signin/nodemailer", { method: "POST", form: { csrfToken: await reader.csrf(), email: "reader@example.com" } });
      expect(link).toContain("/auth/callback/nodemailer");
      await reader.fetch(new URL(link).pathname + new URL(link).search);
      for (const browser of [grace, nobody, reader]) expect(browser.sessionCookies()).toHaveLength(1);

      const graceUser = await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "grace" });
      const nobodyUser = await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "no-mail" });
      const readerUser = await instance.adapter.getUserByEmail!("reader@example.com");
      expect(nobodyUser?.email ?? null).toBeNull();
      // Auth.js stores users it creates through OAuth unverified, whatever the OP asserted.
      expect(graceUser?.emailVerified ?? null).toBeNull();
      expect(new Set([graceUser?.id, nobodyUser?.id, readerUser?.id].map(String)).size).toBe(3);

      // After the switch: the sessions Auth.js stored are read, and move into appauth's cookie.
      expect(await carriedOver(grace, config).session(), loggedErrors(config)).toMatchObject({ user: { email: "grace@example.com" } });
      expect(await carriedOver(nobody, config).session()).toMatchObject({ user: { name: "Nobody's Address" } });
      expect(await carriedOver(reader, config).session()).toMatchObject({ user: { email: "reader@example.com" } });

      // Signing in again finds the users Auth.js created, through the accounts it linked.
      for (const [accountId, user] of [["grace", graceUser], ["no-mail", nobodyUser]] as const) {
        const client = new TestClient(config);
        expect(setsSession(await signInThroughOp(services.op, client, { accountId })), loggedErrors(config)).toBe(true);
        const found = await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: accountId });
        expect(String(found?.id)).toBe(String(user?.id));
        expect(await client.session()).toMatchObject({ user: { name: OP_ACCOUNTS[accountId].name } });
      }
      // Grace's OP vouches for her address: that sign-in marked her verified, so an email link to
      // it now signs in as her, OIDC account and all (an unverified user would be replaced).
      expect((await instance.adapter.getUser!(String(graceUser?.id)))?.emailVerified).toBeInstanceOf(Date);
      const graceByMail = new TestClient(config);
      const { link: graceLink } = await mailedLink(graceByMail, services.smtp, "grace@example.com");
      expect(setsSession(await graceByMail.get(graceLink.href)), loggedErrors(config)).toBe(true);
      expect(String((await instance.adapter.getUserByEmail!("grace@example.com"))?.id)).toBe(String(graceUser?.id));
      expect(String((await instance.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "grace" }))?.id)).toBe(String(graceUser?.id));

      const client = new TestClient(config);
      const { link: appauthLink } = await mailedLink(client, services.smtp, "reader@example.com");
      expect(setsSession(await client.get(appauthLink.href)), loggedErrors(config)).toBe(true);
      expect(String((await instance.adapter.getUserByEmail!("reader@example.com"))?.id)).toBe(String(readerUser?.id));
    });
  });
}
