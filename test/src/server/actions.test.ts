/**
 * The server-side `signIn` and `signOut` (src/server/actions.ts) run the route's flow directly: what
 * a flow fails with reaches the caller as its own typed error, a fault of the server as
 * `Configuration` with nothing of the fault in it, and the CSRF cookie a browser lacked is set on
 * the way, as the CSRF route would have set it.
 */
import { describe, expect, it } from "vitest";
import { CredentialsSignin } from "../../../src/errors.js";
import { signInAction, signOutAction } from "../../../src/server/index.js";
import { ADA_PASSWORD, ADA_USERNAME, CSRF_COOKIE, ORIGIN, passwordProvider, SESSION_COOKIE, testConfig } from "../../helpers/config.js";

class WrongOtp extends CredentialsSignin {
  override code = "wrong_otp";
}

const page = (cookie = "") => new Request(`${ORIGIN}/account`, { headers: { cookie } });
const ada = { username: ADA_USERNAME, password: ADA_PASSWORD };

describe("the server-side signIn", () => {
  it("throws the error the flow failed with, the application's own subclass included", async () => {
    const refusal = new WrongOtp();
    const config = testConfig({
      providers: [
        passwordProvider({
          authorize: () => {
            throw refusal;
          },
        }),
      ],
    });
    await expect(signInAction(page(), config, { provider: "credentials", fields: ada })).rejects.toBe(refusal);
  });

  it("reports a fault of the server as Configuration, without its message, and logs it in full", async () => {
    const config = testConfig({
      providers: [
        passwordProvider({
          authorize: () => {
            throw new Error("connection to db-7.internal refused");
          },
        }),
      ],
    });
    const failed = signInAction(page(), config, { provider: "credentials", fields: ada });
    await expect(failed).rejects.toMatchObject({ type: "Configuration" });
    await expect(failed).rejects.not.toHaveProperty("cause");
    await expect(failed).rejects.toSatisfy((error: Error) => !error.message.includes("db-7"));
    const entry = config.logger.entries.find(({ level }) => level === "error");
    expect(entry?.code).toBe("CallbackRouteError");
    expect(((entry?.message[0] as Error).cause as { err?: Error }).err?.message).toBe("connection to db-7.internal refused");
  });

  it("sets the CSRF cookie a browser without one lacked, before the session, and none when its cookie is valid", async () => {
    const config = testConfig();
    const first = await signInAction(page(), config, { provider: "credentials", fields: ada, redirectTo: "/after" });
    expect(first.url).toBe(`${ORIGIN}/after`);
    expect(first.cookies[0]?.name).toBe(CSRF_COOKIE);
    expect(first.cookies.map(({ name }) => name)).toContain(SESSION_COOKIE);

    const csrf = first.cookies[0]!;
    const again = await signInAction(page(`${CSRF_COOKIE}=${encodeURIComponent(csrf.value)}`), config, { provider: "credentials", fields: ada });
    expect(again.cookies.map(({ name }) => name)).not.toContain(CSRF_COOKIE);
    const session = again.cookies.find(({ name }) => name === SESSION_COOKIE)!;

    const out = await signOutAction(page(`${CSRF_COOKIE}=${encodeURIComponent(csrf.value)}; ${SESSION_COOKIE}=${session.value}`), config, { redirectTo: "/bye" });
    expect(out.url).toBe(`${ORIGIN}/bye`);
    expect(out.cookies.map(({ name }) => name)).not.toContain(CSRF_COOKIE);
    expect(out.cookies.find(({ name }) => name === SESSION_COOKIE)?.value).toBe("");
  });
});
