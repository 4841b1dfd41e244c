/**
 * The provider's answer as the OAuth machine keeps it: a record of every value each parameter came
 * with, which turns back into the same parameters for oauth4webapi.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { callbackParamsOf, searchParamsOf } from "../../../src/oauth/callback-params.js";
import { browser, CALLBACK_ERROR, callbackInHand, expectNoSession, oauthConfig, oidcProvider } from "./fixtures.js";

describe("the callback's parameters as data", () => {
  it("keeps every value of a repeated parameter, so validation still sees (and refuses) the repetition", () => {
    const answer = new URLSearchParams("code=one&state=s&code=two");
    const kept = callbackParamsOf(answer);
    expect(kept).toEqual({ code: ["one", "two"], state: ["s"] });
    expect(searchParamsOf(kept).getAll("code")).toEqual(["one", "two"]);
  });

  it("survives JSON unchanged and turns back into the same parameters", () => {
    const answer = new URLSearchParams({ code: "c", state: "s", iss: "https://op.example", user: '{"name":{"firstName":"Ada"}}' });
    const kept = callbackParamsOf(answer);
    expect(JSON.parse(JSON.stringify(kept))).toEqual(kept);
    expect([...searchParamsOf(kept)]).toEqual([...answer]);
  });

  it("keeps a parameter named __proto__ as a parameter, not the record's prototype", () => {
    const kept = callbackParamsOf(new URLSearchParams("__proto__=x&code=c"));
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(Object.keys(kept)).toEqual(["__proto__", "code"]);
    expect(searchParamsOf(kept).get("__proto__")).toBe("x");
  });
});

describe("a callback whose code comes twice, the same both times", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("is refused as an OAuthCallbackError, with no session", async () => {
    const client = browser(oauthConfig([oidcProvider(op)]));
    const { url } = await callbackInHand(op, client);
    const twice = new URL(url);
    // Kept once, the code would sign in; oauth4webapi refuses a parameter that came more than once.
    twice.searchParams.append("code", twice.searchParams.get("code")!);
    const callback = await client.get(twice.href);
    expect(callback.headers.get("location")).toBe(CALLBACK_ERROR);
    await expectNoSession(client, callback);
  });
});
