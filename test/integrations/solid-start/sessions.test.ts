/**
 * "Your devices" from SolidStart server functions: `listSessions`, `revokeSession`,
 * `revokeOtherSessions` and `revokeAllSessions` of `ReactiveAuth(config)`, with the form checks of
 * `signIn` when a form is passed (another site's post ends nothing).
 */
import { describe, expect, it } from "vitest";
import ReactiveAuth, { MissingCSRF, type ReactiveAuthConfig } from "../../../integrations/solid-start/index.js";
import { ADA_PASSWORD, ADA_USERNAME, testConfig } from "../../helpers/config.js";
import { event, form, SAME_ORIGIN, serving, thrownBy, visitor, type Jar } from "./fixtures.js";

/** Two browsers signed in as Ada to one app, each with its CSRF token. */
async function twoBrowsers() {
  const auth = ReactiveAuth(testConfig() as ReactiveAuthConfig);
  const browsers: { jar: Jar; token: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const { jar, token } = await visitor(auth);
    const call = event("/_server?id=signin", { jar, method: "POST", headers: SAME_ORIGIN });
    await thrownBy(serving(call, () => auth.signIn("credentials", form({ username: ADA_USERNAME, password: ADA_PASSWORD, csrfToken: token, redirectTo: "/" }))));
    jar.keep(call.response.headers);
    browsers.push({ jar, token });
  }
  const signedIn = async (jar: Jar) => (await serving(event("/", { jar }), () => auth.auth())) !== null;
  return { auth, laptop: browsers[0]!, phone: browsers[1]!, signedIn };
}

describe("the person's sessions from SolidStart server functions", () => {
  it("lists both browsers with this one marked, and ends the other from a form", async () => {
    const { auth, laptop, phone, signedIn } = await twoBrowsers();
    const sessions = (await serving(event("/devices", { jar: laptop.jar }), () => auth.listSessions()))!;
    expect(sessions.map((s) => s.current).sort()).toEqual([false, true]);
    const other = sessions.find((s) => !s.current)!;

    const call = event("/_server?id=revoke", { jar: laptop.jar, method: "POST", headers: SAME_ORIGIN });
    expect(await serving(call, () => auth.revokeSession(other.id, form({ csrfToken: laptop.token })))).toBe(true);
    expect(await signedIn(phone.jar)).toBe(false);
    expect(await signedIn(laptop.jar)).toBe(true);
  });

  it("ends nothing for another site's post or a form without the token", async () => {
    const { auth, laptop, phone, signedIn } = await twoBrowsers();
    const forged = event("/_server?id=revoke", { jar: laptop.jar, method: "POST", headers: { origin: "https://evil.example" } });
    expect(await thrownBy(serving(forged, () => auth.revokeOtherSessions(form({ csrfToken: laptop.token }))))).toBeInstanceOf(MissingCSRF);
    const tokenless = event("/_server?id=revoke", { jar: laptop.jar, method: "POST", headers: SAME_ORIGIN });
    expect(await thrownBy(serving(tokenless, () => auth.revokeAllSessions(undefined, form({}))))).toBeInstanceOf(MissingCSRF);
    expect(await signedIn(phone.jar)).toBe(true);
    expect(await signedIn(laptop.jar)).toBe(true);
  });

  it("lets the application end every session of a user by id", async () => {
    const { auth, laptop, phone, signedIn } = await twoBrowsers();
    expect(await auth.revokeAllSessions("user-ada")).toBe(2);
    expect(await signedIn(laptop.jar)).toBe(false);
    expect(await signedIn(phone.jar)).toBe(false);
  });
});
