import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "../../../src/adapters/memory/index.js";
import Nodemailer from "../../../src/providers/email.js";
import { sealSecret } from "../../../src/two-factor/secret-box.js";
import { generateTotp, generateTotpSecret } from "../../../src/two-factor/totp.js";
import { ADA, BASE_URL, SECRET, SESSION_COOKIE, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

describe("an email link of a user with a second factor", () => {
  it("consumes the link but marks nothing verified and issues no session until the code; then the same user is signed in and verified", async () => {
    const adapter = MemoryAdapter();
    // Never verified: following the link would claim and verify the user, which waits for the factor.
    await adapter.createUser({ ...ADA, emailVerified: null });
    const secret = generateTotpSecret();
    await adapter.createTwoFactor({
      id: "phone",
      userId: ADA.id,
      type: "totp",
      createdAt: new Date(),
      secret: await sealSecret(secret, SECRET),
      lastUsedStep: -1,
      active: true,
    });
    const links: string[] = [];
    const config = testConfig({
      adapter,
      session: { strategy: "jwt" },
      twoFactor: {},
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "no-reply@example.test", sendVerificationRequest: async ({ url }) => void links.push(url) })],
    });
    const browser = new TestClient(config);
    await browser.post("/signin/nodemailer", { csrfToken: await browser.csrf(), email: ADA.email, callbackUrl: "/inbox" });
    const followed = await browser.get(links[0]!);
    expect(followed.headers.get("location")).toBe(`${BASE_URL}/two-factor-challenge`);
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await browser.session()).toBeNull();
    expect((await adapter.getUser(ADA.id))?.emailVerified).toBeNull();
    // The link is single use even while the sign-in waits.
    const again = await new TestClient(config).get(links[0]!);
    expect(again.headers.get("location")).toContain("error=Verification");

    const passed = await browser.post("/two-factor-challenge", { csrfToken: await browser.csrf(), code: await generateTotp(secret, Date.now()) });
    expect(passed.headers.get("location")).toBe("http://localhost:3000/inbox");
    const session = (await browser.session()) as { user: { email: string } } | null;
    expect(session?.user.email).toBe(ADA.email);
    const user = await adapter.getUser(ADA.id);
    expect(user?.id).toBe(ADA.id);
    expect(user?.emailVerified).toBeInstanceOf(Date);
  });
});
