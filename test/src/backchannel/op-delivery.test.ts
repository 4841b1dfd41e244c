/**
 * Back-channel logout end to end: the person signs in through the real OP in a browser that keeps
 * its OP session, then signs out at the OP, and the OP itself POSTs its logout token to appauth —
 * served here on a loopback HTTP server, as an application would serve `Auth` — which ends the
 * database session that OP session signed in. The OP's token, captured, cannot be used again.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL } from "../../helpers/config.js";
import { CONFIDENTIAL_CLIENT, startTestProvider, type TestBrowser, type TestProvider } from "../../helpers/oidc-provider.js";
import { Auth } from "../../../src/index.js";
import type { AuthConfig } from "../../../src/types.js";
import { browser, deliver, expectSignedInAs, locationOf, startSignIn } from "../oauth/fixtures.js";
import { backchannelSetup, expectRefused, postLogoutToken, stillSignedIn, type Setup, type SignedIn } from "./fixtures.js";

const SUB_ONLY_CLIENT = {
  client_id: "appauth-sub-only",
  client_secret: "appauth-sub-only-secret-0123456789abcdef",
  token_endpoint_auth_method: "client_secret_basic" as const,
  redirect_uris: [`${BASE_URL}/callback/oidc-b`],
};

/** `Auth` behind a loopback HTTP server: the OP's back-channel requests reach it like any other. */
async function serve(configOf: () => AuthConfig): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const { port } = server.address() as AddressInfo;
      const request = new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers,
        ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
      });
      const response = await Auth(request, configOf());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(599).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let op: TestProvider;
let server: Server;
let setup: Setup;

beforeAll(async () => {
  const served = await serve(() => setup.config);
  server = served.server;
  op = await startTestProvider({
    clients: [
      {
        ...CONFIDENTIAL_CLIENT,
        backchannel_logout_uri: `${served.url}/auth/backchannel-logout/oidc`,
        backchannel_logout_session_required: true,
      },
      // Without backchannel_logout_session_required the OP puts no sid in its tokens: its logout names the user.
      { ...SUB_ONLY_CLIENT, backchannel_logout_uri: `${served.url}/auth/backchannel-logout/oidc-b` },
    ],
  });
});
afterAll(async () => {
  await op.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Signs Ada in through `providerId` in `opBrowser`, whose OP session lives on. */
async function signInWith(opBrowser: TestBrowser, providerId = "oidc"): Promise<SignedIn> {
  const client = browser(setup.config);
  const back = await opBrowser.authorize(locationOf(await startSignIn(client, providerId)), { accountId: "ada" });
  await expectSignedInAs(client, await deliver(client, back), "ada@example.com");
  const found = await setup.adapter.getSessionAndUser(client.cookie("appauth.session-token")!);
  return { client, session: found!.session };
}

describe("back-channel logout delivered by the OP", () => {
  it("ends the session of the OP session the person signed out of, and the captured token cannot be replayed", async () => {
    setup = backchannelSetup(op);
    const [laptopOp, phoneOp] = [op.browser(), op.browser()];
    const laptop = await signInWith(laptopOp);
    const phone = await signInWith(phoneOp);
    op.backchannelDeliveries.length = 0;

    expect(await laptopOp.signOutAtProvider()).toEqual({ page: "signed-out" });
    const delivered = op.backchannelDeliveries.filter((d) => d.clientId === CONFIDENTIAL_CLIENT.client_id);
    expect(delivered).toEqual([
      expect.objectContaining({ outcome: "delivered", sub: "ada", sid: laptop.session.providerSessionId }),
    ]);
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(await stillSignedIn(phone)).toBe(true);

    await expectRefused(await postLogoutToken(setup.config, delivered[0]!.logoutToken), /already used/);
    expect(await stillSignedIn(phone)).toBe(true);
  });

  it("ends every session of the user when the OP's token names only sub", async () => {
    setup = backchannelSetup(op, {
      oidcB: { clientId: SUB_ONLY_CLIENT.client_id, clientSecret: SUB_ONLY_CLIENT.client_secret },
    });
    const [laptopOp, phoneOp] = [op.browser(), op.browser()];
    const laptop = await signInWith(laptopOp, "oidc-b");
    const phone = await signInWith(phoneOp, "oidc-b");
    op.backchannelDeliveries.length = 0;

    await laptopOp.signOutAtProvider();
    const delivered = op.backchannelDeliveries.filter((d) => d.clientId === SUB_ONLY_CLIENT.client_id);
    expect(delivered).toEqual([expect.objectContaining({ outcome: "delivered", sub: "ada" })]);
    expect(delivered[0]!.sid).toBeUndefined();
    expect(await stillSignedIn(laptop)).toBe(false);
    expect(await stillSignedIn(phone)).toBe(false);
  });
});
