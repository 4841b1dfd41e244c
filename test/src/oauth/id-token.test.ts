/**
 * The ID token is checked before anyone is signed in: its nonce against the flow's, its audience,
 * issuer and expiry, and its signature against the OP's keys. Each test alters one thing in a
 * genuine token from the real OP, on its way from the token endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { customFetch } from "../../../src/symbols.js";
import {
  browser,
  CALLBACK_ERROR,
  expectNoSession,
  expectSignedInAs,
  oauthConfig,
  loggedErrors,
  oidcProvider,
  signInThroughOp,
} from "./fixtures.js";
import { idTokenRewriter, type ClaimsEdit } from "./forgery.js";

describe("checking the ID token", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  async function signInWithRewrittenIdToken(edit: ClaimsEdit, choice: "op" | "unrelated" = "op") {
    const rewriter = idTokenRewriter(op, edit, choice);
    const config = oauthConfig([oidcProvider(op, { [customFetch]: rewriter })]);
    const client = browser(config);
    const callback = await signInThroughOp(op, client);
    expect(rewriter.rewritten).toBe(1);
    return { client, callback, config };
  }

  it("accepts an ID token re-signed unchanged with the OP's key (the interception alone changes nothing)", async () => {
    const { client, callback } = await signInWithRewrittenIdToken((claims) => claims);
    await expectSignedInAs(client, callback, "ada@example.com");
  });

  const past = Math.floor(Date.now() / 1000) - 3600;
  const rejections: { what: string; edit: ClaimsEdit; key?: "unrelated"; reason: RegExp }[] = [
    { what: "whose nonce is not the one the flow sent", edit: (c) => ({ ...c, nonce: "a-nonce-from-another-flow" }), reason: /nonce/ },
    { what: "with no nonce when the flow sent one", edit: ({ nonce: _nonce, ...c }) => c, reason: /nonce/ },
    { what: "issued to another client (wrong audience)", edit: (c) => ({ ...c, aud: "another-client" }), reason: /aud/ },
    { what: "from another issuer", edit: (c) => ({ ...c, iss: "https://evil.example" }), reason: /iss/ },
    { what: "that has expired", edit: (c) => ({ ...c, iat: past - 300, exp: past }), reason: /exp/ },
    { what: "signed by an unrelated key under the OP's kid", edit: (c) => c, key: "unrelated", reason: /signature/ },
    {
      what: "naming another person, with a forged signature",
      edit: (c) => ({ ...c, sub: "grace", email: "grace@example.com" }),
      key: "unrelated",
      reason: /signature/,
    },
  ];

  it.each(rejections)("rejects an ID token $what", async ({ edit, key, reason }) => {
    const { client, callback, config } = await signInWithRewrittenIdToken(edit, key);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
    expect(loggedErrors(config)).toMatch(reason);
  });
});
