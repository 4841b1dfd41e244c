/**
 * A signIn callback that diverts a passkey sign-in sends the browser where every other sign-in would:
 * to an absolute http(s) URL, a relative path made absolute, anything else to the origin. The passkey
 * flow once passed the callback's string to the Location header as it was.
 */
import { describe, expect, it } from "vitest";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";
import { ORIGIN, PasskeyClient, passkeyConfig, softAuthenticator } from "./fixtures.js";

const DIVERSIONS: Array<[string, string]> = [
  ["/onboarding", `${ORIGIN}/onboarding`],
  ["javascript:alert(1)", ORIGIN],
  ["mailto:ada@example.com", ORIGIN],
];

describe("a sign-in the signIn callback diverts", () => {
  it.each(DIVERSIONS)("to %s goes to %s with a passkey, as with a password", async (diversion, expected) => {
    const signIn = () => diversion;
    const passkey = new PasskeyClient(passkeyConfig({ callbacks: { signIn } }));
    const registered = await passkey.register(await softAuthenticator(), "grace@example.com");
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toBe(expected);

    const password = new TestClient(testConfig({ callbacks: { signIn } }));
    const signedIn = await password.signIn(ADA_USERNAME, ADA_PASSWORD);
    expect(signedIn.headers.get("location")).toBe(expected);
  });
});
