/**
 * Back-channel logout through `Auth`, with database sessions on the memory adapter and a real OP: a
 * genuine logout token ends exactly the sessions it names — every session of the OP's user (`sub`),
 * or those of one OP session (`sid`) — and no session of another user or another provider.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestProvider, type TestProvider } from "../../helpers/oidc-provider.js";
import type { EventCallbacks } from "../../../src/types.js";
import { customFetch } from "../../../src/symbols.js";
import { discover, recordingFetch } from "../oauth/fixtures.js";
import {
  BACKCHANNEL_CLIENT,
  backchannelSetup,
  expectLoggedOut,
  liveSessions,
  logoutToken,
  now,
  postLogoutToken,
  signedIn,
  stillSignedIn,
} from "./fixtures.js";

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({ clients: [BACKCHANNEL_CLIENT] });
});
afterAll(() => op.close());

describe("POST /backchannel-logout/:provider with a genuine logout token", () => {
  it("ends every session of the OP's user (sub), and /session then answers null to their cookies", async () => {
    const setup = backchannelSetup(op);
    const [laptop, phone] = [await signedIn(op, setup), await signedIn(op, setup)];
    const grace = await signedIn(op, setup, "grace");

    const response = await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }));
    await expectLoggedOut(response);
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(await stillSignedIn(phone)).toBe(false);
    expect(await liveSessions(setup, laptop, phone)).toBe(0);
    expect(await stillSignedIn(grace)).toBe(true);
  });

  it("ends only the sessions of the OP session it names (sid), whatever else the user has open", async () => {
    const setup = backchannelSetup(op);
    const laptop = await signedIn(op, setup);
    const phone = await signedIn(op, setup);
    expect(laptop.session.providerSessionId).not.toBe(phone.session.providerSessionId);

    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sid: laptop.session.providerSessionId })));
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(await stillSignedIn(phone)).toBe(true);
  });

  it("with both sub and sid, ends that OP session's sessions and not the user's others", async () => {
    const setup = backchannelSetup(op);
    const laptop = await signedIn(op, setup);
    const phone = await signedIn(op, setup);
    const token = await logoutToken(op, { sub: "ada", sid: phone.session.providerSessionId });
    await expectLoggedOut(await postLogoutToken(setup.config, token));
    expect(await stillSignedIn(phone)).toBe(false);
    expect(await stillSignedIn(laptop)).toBe(true);
  });

  it("leaves the sessions signed in through another provider, even of the same OP account", async () => {
    const setup = backchannelSetup(op);
    const viaOidc = await signedIn(op, setup);
    const viaOidcB = await signedIn(op, setup, "ada", "oidc-b");
    expect(viaOidcB.session.userId).toBe(viaOidc.session.userId);

    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(await stillSignedIn(viaOidc)).toBe(false);
    expect(await stillSignedIn(viaOidcB)).toBe(true);

    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }), "oidc-b"));
    expect(await stillSignedIn(viaOidcB)).toBe(false);
  });

  it("answers 200 when the token names nobody signed in here (the OP's user may have no session left)", async () => {
    const setup = backchannelSetup(op);
    const grace = await signedIn(op, setup, "grace");
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(await stillSignedIn(grace)).toBe(true);
  });

  it("announces the logout to events.backchannelLogout with the provider, sub, sid and how many sessions ended", async () => {
    const backchannelLogout = vi.fn<NonNullable<EventCallbacks["backchannelLogout"]>>();
    const setup = backchannelSetup(op, { config: { events: { backchannelLogout } } });
    const first = await signedIn(op, setup);
    await signedIn(op, setup);
    const sid = first.session.providerSessionId!;
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sid })));
    expect(backchannelLogout.mock.calls).toEqual([[{ provider: "oidc", sub: "ada", count: 2 }], [{ provider: "oidc", sid, count: 0 }]]);
  });

  it("keeps the logout token out of what config.inspect observes", async () => {
    const observed: unknown[] = [];
    const setup = backchannelSetup(op, { config: { inspect: (event) => observed.push(event) } });
    const ada = await signedIn(op, setup);
    observed.length = 0;
    const token = await logoutToken(op, { sub: "ada" });
    await expectLoggedOut(await postLogoutToken(setup.config, token));
    expect(await stillSignedIn(ada)).toBe(false);
    const seen = JSON.stringify(observed);
    expect(seen).toContain("backchannelLogout");
    expect(seen).not.toContain(token.split(".")[2]);
  });

  it("accepts a token without typ, or typed application/logout+jwt; refuses one without exp (REQUIRED, §2.4)", async () => {
    const setup = backchannelSetup(op);
    for (const signing of [{ header: { typ: undefined } }, { header: { typ: "application/logout+jwt" } }]) {
      const ada = await signedIn(op, setup);
      await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, signing)));
      expect(await stillSignedIn(ada)).toBe(false);
    }
    const ada = await signedIn(op, setup);
    const withoutExp = await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada", exp: undefined }));
    expect(withoutExp.status).toBe(400);
    expect(await stillSignedIn(ada)).toBe(true);
  });

  it("accepts the OP's ES256 key, and HS256 with the client secret (the OP lists both)", async () => {
    const setup = backchannelSetup(op);
    const es256 = await signedIn(op, setup);
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: op.signingKeys[1]! })));
    expect(await stillSignedIn(es256)).toBe(false);

    const hs256 = await signedIn(op, setup);
    const secret = { kty: "oct", k: Buffer.from(BACKCHANNEL_CLIENT.client_secret!).toString("base64url"), alg: "HS256" };
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" }, { key: secret })));
    expect(await stillSignedIn(hs256)).toBe(false);
  });

  it("accepts a token as old as the provider's maxAge allows", async () => {
    const setup = backchannelSetup(op, { oidc: { backchannelLogout: { maxAge: 600 } } });
    const ada = await signedIn(op, setup);
    const token = await logoutToken(op, { sub: "ada", iat: now() - 500, exp: now() + 60 });
    await expectLoggedOut(await postLogoutToken(setup.config, token));
    expect(await stillSignedIn(ada)).toBe(false);
  });

  it("fetches the OP's JWKS through the provider's [customFetch] once, for logout tokens and ID tokens alike", async () => {
    const fetchSpy = recordingFetch();
    const setup = backchannelSetup(op, { oidc: { [customFetch]: fetchSpy } });
    const { jwks_uri } = await discover(op);
    const jwksFetches = () => fetchSpy.urls.filter((url) => url === jwks_uri).length;
    // Nobody has signed in yet: the first logout token is what needs the keys.
    await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
    expect(jwksFetches()).toBe(1);
    for (let i = 0; i < 2; i++) {
      const ada = await signedIn(op, setup);
      await expectLoggedOut(await postLogoutToken(setup.config, await logoutToken(op, { sub: "ada" })));
      expect(await stillSignedIn(ada)).toBe(false);
    }
    expect(jwksFetches()).toBe(1);
  });
});
