/**
 * What an `inspect` observer sees of an OpenID Connect sign-in now that the tokens, the ID token's
 * claims and the provider's answer pass between the OAuth machine's steps in its context: the
 * context's request facts and steps, and none of the secrets.
 */
import type { InspectionEvent } from "xstate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import { authorizeAt, BASE_URL, browser, deliver, expectSignedInAs, oauthConfig, oidcProvider } from "./fixtures.js";

type Seen = {
  type: string;
  actorRef: { logic?: { config?: { id?: string } } };
  snapshot?: { value?: unknown; context?: Record<string, unknown> };
};

describe("inspecting an OpenID Connect sign-in", () => {
  let op: TestProvider;

  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(() => op.close());

  it("shows the OAuth steps and the request's facts, with the tokens, the claims, the code and the state redacted", async () => {
    const seen: Seen[] = [];
    const adapter = MemoryAdapter();
    const config = oauthConfig([oidcProvider(op)], { adapter, inspect: (event: InspectionEvent) => void seen.push(event as never) });
    const client = browser(config);
    const outcome = await authorizeAt(op, client);
    const answer = new URL(outcome.url).searchParams;
    await expectSignedInAs(client, await deliver(client, outcome), "ada@example.com");

    const contexts = seen
      .filter((event) => event.type === "@xstate.snapshot" && event.actorRef.logic?.config?.id === "oauth")
      .map((event) => event.snapshot!);
    const states = contexts.map((snapshot) => snapshot.value);
    expect(states).toEqual(expect.arrayContaining(["exchangingCode", "verifyingIdToken", "mappingProfile", "pickingAccountFields", "completing", "signedIn"]));

    const signedIn = contexts.find((snapshot) => snapshot.value === "signedIn")!.context!;
    expect(signedIn.request).toEqual({ origin: new URL(BASE_URL).origin, baseUrl: BASE_URL, secure: BASE_URL.startsWith("https:") });
    expect(signedIn).not.toHaveProperty("req");
    // Shown by allowlist: what is not on the OAuth machine's list is its type and length only.
    expect(signedIn.tokens).toMatchObject({ access_token: expect.stringMatching(/^\[string:\d+\]$/) });
    expect(signedIn.idTokenClaims).toMatchObject({ email: "[string:15]", sub: "[string:3]" });
    expect(signedIn.callbackParams).toMatchObject({ code: [expect.stringMatching(/^\[string:\d+\]$/)], state: [expect.stringMatching(/^\[string:\d+\]$/)] });

    const account = (await adapter.getAccount("ada", "oidc"))!;
    const wire = JSON.stringify(seen);
    for (const secret of [account.access_token!, account.id_token!, answer.get("code")!, answer.get("state")!]) {
      expect(wire).not.toContain(secret);
    }
  });
});
