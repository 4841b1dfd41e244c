/**
 * Budgets an attacker cannot reshape or turn against the person they protect: whatever shape or
 * spelling the identifier takes, one account gets at most the documented password checks (5 from
 * one address, 20 from all); a stranger's guesses never lock the person out of a browser where
 * they signed in before (its device cookie); malformed attempts are counted and never checked.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { User } from "../../../src/types.js";
import { foldIdentifier } from "../../../src/rate-limit/identifier.js";
import { passwordProvider, testConfig } from "../../helpers/config.js";
import { TestClient } from "../../helpers/test-client.js";

const EMAIL = "ada@example.test";
const PASSWORD = "correct horse";

/** Ways to write Ada's address that a database, a mail server or an eye would take for hers. */
const SPELLINGS: ((email: string) => string)[] = [
  (e) => e,
  (e) => e.toUpperCase(),
  (e) => ` ${e}\t`,
  (e) => e.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)), // fullwidth
  (e) => e.replace("d", "\u200Bd\u200D"), // zero-width space and joiner
  (e) => e.replace("a", "\u00E1"), // an accent
  (e) => e.replace("a", "a\u0301"), // a combining accent
  (e) => e.replace("a", "\u0430"), // Cyrillic a
  (e) => e.replace("@", "+1@"), // plus-tag
  (e) => e.replace("@", "+news@").toUpperCase(),
  (e) => `${e}.`, // the domain's trailing dot
  (e) => e.replace("ada", "\u00AD\u200Eada"), // soft hyphen, a bidi mark
];

/** Shapes a JSON body can give the identifier besides a string. */
const SHAPES: ((email: string) => unknown)[] = [(e) => [e], (e) => [e, e], () => 1, (e) => ({ email: e }), () => null, () => true];

const identifierValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPELLINGS).map((spell) => spell(EMAIL) as unknown) },
  { weight: 1, arbitrary: fc.constantFrom(...SHAPES).map((shape) => shape(EMAIL)) },
);

function adaConfig() {
  // Checks the password against the account its database would find: one that compares as MariaDB's
  // default collation and the mail server do (accents, case, plus-tags, format characters).
  const checked: unknown[] = [];
  const authorize = vi.fn((credentials: Partial<Record<string, unknown>>): User | null => {
    checked.push(credentials.email);
    return foldIdentifier(String(credentials.email)) === EMAIL && credentials.password === PASSWORD ? { id: "ada", email: EMAIL } : null;
  });
  const config = testConfig({
    providers: [passwordProvider({ credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } }, authorize })],
    rateLimit: { trustProxy: true },
  });
  return { config, authorize, checked };
}

const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

describe("no identifier shape buys more password checks", () => {
  it("checks Ada's password at most 5 times from one address and 20 times from ten, whatever the spelling or shape", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(identifierValue, { minLength: 30, maxLength: 60 }), fc.constantFrom(1, 10), async (values, addresses) => {
        const { config, authorize, checked } = adaConfig();
        const client = new TestClient(config);
        const csrfToken = await client.csrf();
        for (const [i, email] of values.entries()) {
          await client.postJson("/callback/credentials", { csrfToken, email, password: `guess ${i}` }, from(`198.51.100.${i % addresses}`));
        }
        // Only strings reach authorize.
        expect(checked.every((value) => typeof value === "string")).toBe(true);
        expect(authorize.mock.calls.length).toBeLessThanOrEqual(addresses === 1 ? 5 : 20);
      }),
      { numRuns: 15 },
    );
  });

  it("refuses an array, a number or an object as the identifier without calling authorize, and counts it against the address", async () => {
    const { config, authorize } = adaConfig();
    const client = new TestClient(config);
    const csrfToken = await client.csrf();
    const answers: (string | null)[] = [];
    for (let i = 0; i < 101; i++) {
      const shape = SHAPES[i % SHAPES.length]!(EMAIL);
      const response = await client.postJson("/callback/credentials", { csrfToken, email: shape, password: "x" }, { headers: { ...from("192.0.2.77").headers, "x-auth-return-redirect": "1" } });
      answers.push(new URL(((await response.json()) as { url: string }).url).searchParams.get("error"));
    }
    expect(authorize).not.toHaveBeenCalled();
    // The per-address ceiling (100 per 15 minutes) counts malformed attempts too.
    expect(answers.slice(0, 100).every((error) => error === "CredentialsSignin")).toBe(true);
    expect(answers.at(-1)).toBe("RateLimited");
  });

  it("refuses a form that sends the identifier twice without calling authorize", async () => {
    const { config, authorize } = adaConfig();
    const client = new TestClient(config);
    const body = new URLSearchParams([["csrfToken", await client.csrf()], ["email", "mallory@example.test"], ["email", EMAIL], ["password", "x"]]);
    const response = await client.request("POST", "/callback/credentials", {
      headers: { "content-type": "application/x-www-form-urlencoded", ...from("192.0.2.78").headers },
      body: body.toString(),
    });
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin");
    expect(authorize).not.toHaveBeenCalled();
  });
});

describe("no lockout by a stranger", () => {
  it("lets Ada sign in from her own browser after 1,000 wrong passwords for her from 50 addresses", async () => {
    const { config, authorize } = adaConfig();
    const ada = new TestClient(config);
    const signInAda = async () =>
      new URL((await ada.post("/callback/credentials", { csrfToken: await ada.csrf(), email: EMAIL, password: PASSWORD }, from("203.0.113.5"))).headers.get("location")!);
    expect((await signInAda()).pathname).toBe("/");
    expect(ada.cookie("appauth.device")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]{64}$/);
    await ada.post("/signout", { csrfToken: await ada.csrf() });
    authorize.mockClear();

    const mallory = new TestClient(config);
    const csrfToken = await mallory.csrf();
    for (let i = 0; i < 1000; i++) {
      await mallory.post("/callback/credentials", { csrfToken, email: EMAIL, password: `guess ${i}` }, from(`198.51.100.${i % 50}`));
    }
    expect(authorize.mock.calls.length).toBeLessThanOrEqual(20);
    // Without the device cookie, even Ada's right password is refused now...
    const elsewhere = new TestClient(config);
    const refused = await elsewhere.post("/callback/credentials", { csrfToken: await elsewhere.csrf(), email: EMAIL, password: PASSWORD }, from("203.0.113.6"));
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("RateLimited");
    // ...but her own browser still signs her in.
    expect((await signInAda()).pathname).toBe("/");
  });

  it("gives a device cookie no budget for another identifier, nor one it did not sign", async () => {
    const { config, authorize } = adaConfig();
    const ada = new TestClient(config);
    await ada.post("/callback/credentials", { csrfToken: await ada.csrf(), email: EMAIL, password: PASSWORD }, from("203.0.113.5"));
    const device = ada.cookie("appauth.device")!;
    const mallory = new TestClient(config);
    const csrfToken = await mallory.csrf();
    const guess = (email: string, cookie: string) =>
      mallory.post("/callback/credentials", { csrfToken, email, password: "x" }, { headers: { ...from("198.51.100.9").headers, cookie: `appauth.device=${cookie}; ${mallory.cookieHeader()}` } });
    authorize.mockClear();
    // Ada's cookie for Bob's account: counted as any stranger's attempts (5 from this address).
    for (let i = 0; i < 8; i++) await guess("bob@example.test", device);
    expect(authorize).toHaveBeenCalledTimes(5);
    // A forged cookie for Ada's account: the same.
    authorize.mockClear();
    for (let i = 0; i < 8; i++) await guess(EMAIL, `${"0".repeat(32)}.${"f".repeat(64)}`);
    expect(authorize).toHaveBeenCalledTimes(5);
  });

  it("spends nothing of the account's budget with attempts its address was already refused", async () => {
    const { config, authorize } = adaConfig();
    const mallory = new TestClient(config);
    const csrfToken = await mallory.csrf();
    // One address, 21 attempts in the window: 5 checked, 16 refused by the per-address rule.
    for (let i = 0; i < 21; i++) await mallory.post("/callback/credentials", { csrfToken, email: EMAIL, password: "x" }, from("198.51.100.1"));
    expect(authorize).toHaveBeenCalledTimes(5);
    // Ada, from anywhere else, in a browser that never signed in: still within the account's 20.
    const ada = new TestClient(config);
    const answer = await ada.post("/callback/credentials", { csrfToken: await ada.csrf(), email: EMAIL, password: PASSWORD }, from("203.0.113.7"));
    expect(new URL(answer.headers.get("location")!).pathname).toBe("/");
  });
});
