/**
 * Where the time of one appauth GET /session goes: each piece of the request timed alone (config
 * lookup, request context, cookie read, JWE open, the session machine with and without its effects,
 * the Response), beside the whole request and @auth/core's. Micro-timings are sequential awaits,
 * like the benchmark, repeated in interleaved passes (see micro.ts).
 *
 *   npx tsx bench/profile-session.ts [--iterations 1000] [--passes 15]
 */
import { createHmac, createDecipheriv } from "node:crypto";
import { createActor, fromPromise, setup } from "xstate";
import { sessionMachine } from "../machines/session.machine.js";
import { getRuntime } from "../src/config/runtime.js";
import { parseCookies, type SetCookie } from "../src/cookies.js";
import { bindDatabaseSession } from "../src/flows/database-session.js";
import { loadTokenRefresh } from "../src/flows/token-refresh-loader.js";
import { bindSessionMachine, handleSession } from "../src/flows/session.js";
import { runFlow } from "../src/flows/run.js";
import { decodeWithSecretIndex } from "../src/jwt/index.js";
import { openJwe, parseJwe } from "../src/jwt/jwe.js";
import { sessionKey } from "../src/jwt/key.js";
import { toResponse } from "../src/response.js";
import { buildContext } from "../src/router.js";
import { requestFacts } from "../src/request-context.js";
import { ROUTE_PATHS } from "../src/routes.js";
import { decodeSessionToken, readSessionCookie } from "../src/session/jwt-session.js";
import type { JWT, Session } from "../src/types.js";
import { appauthConfig, authjsConfig, createContenders, isolateFromEnvironment } from "./contenders.js";
import { measurePieces, microOptions, type Piece } from "./micro.js";
import { SCENARIOS, signInOnce } from "./scenarios.js";

async function main(): Promise<void> {
  isolateFromEnvironment();
  const options = microOptions();

  const config = appauthConfig();
  const [appauth, authjs] = createContenders({ appauth: config, authjs: authjsConfig() });
  const fixture = await signInOnce(appauth);
  const authjsFixture = await signInOnce(authjs);
  const sessionRequest = () => SCENARIOS.session.request(fixture);

  const rt = getRuntime(config);
  const ctx = await buildContext(rt, sessionRequest(), ROUTE_PATHS);
  const token = readSessionCookie(rt, ctx)!;
  const salt = ctx.cookies.sessionToken.name;
  const jwe = parseJwe(token)!;
  const key = await sessionKey(rt.secrets[0]!, salt);
  const decoded = (await decodeSessionToken(rt, ctx, token))!;
  const bound = bindSessionMachine(rt, loadTokenRefresh);
  // The default configuration (no jwt or session callback), as handleSession passes it.
  const input = { token, now: Date.now(), updateAge: rt.session.updateAge, callbacks: rt.configuredCallbacks, request: requestFacts(ctx) };
  const session: Session = { user: { name: "Bench User", email: "bench@example.com", image: null }, expires: new Date().toISOString() };
  const machines = { jwt: bound, database: bindDatabaseSession(rt, loadTokenRefresh) };
  const plan = await handleSession(rt, machines, ctx);

  // The session machine with effects that return at once: what the machine itself costs.
  const instant = sessionMachine.provide({
    actors: {
      decodeSessionToken: fromPromise(async (): Promise<typeof decoded | null> => decoded),
      jwtCallback: fromPromise(async (): Promise<{ token: JWT | null; changed: boolean }> => ({ token: decoded.payload, changed: false })),
      encodeSessionToken: fromPromise(async (): Promise<{ cookies: SetCookie[]; expires: string }> => ({ cookies: [], expires: session.expires })),
      sessionCallback: fromPromise(async () => session),
    },
  });
  // The smallest machine there is: creating, starting and stopping an actor.
  const trivial = setup({}).createMachine({ initial: "done", states: { done: { type: "final" } } });

  // The same work as the machine's effects, called one after the other with no machine.
  async function withoutMachine(): Promise<unknown> {
    const result = await decodeSessionToken(rt, ctx, token);
    if (!result) throw new Error("token did not open");
    const before = JSON.stringify(result.payload);
    const kept = (await rt.callbacks.jwt({ token: result.payload })) as JWT;
    const changed = JSON.stringify(kept) !== before;
    const expires = new Date((kept.exp ?? 0) * 1000).toISOString();
    const shaped = await rt.callbacks.session({
      session: { user: { name: kept.name ?? null, email: kept.email ?? null, image: kept.picture ?? null }, expires },
      token: kept,
      user: undefined as never,
    });
    return { shaped, changed };
  }

  // Node's synchronous primitives for the same two operations, to price Web Crypto's async dispatch.
  const rawKey = new Uint8Array(64).fill(7);
  const macInput = new Uint8Array(jwe.aad.length + jwe.iv.length + jwe.ciphertext.length + 8);
  const aesKey = await crypto.subtle.importKey("raw", rawKey.subarray(32), "AES-CBC", false, ["encrypt", "decrypt"]);
  const aesCiphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: jwe.iv }, aesKey, new Uint8Array(150)));

  const pieces: Piece[] = [
    { label: "@auth/core Auth(): whole GET /session, incl. new Request", run: () => authjs.handle(SCENARIOS.session.request(authjsFixture)) },
    { label: "appauth Auth(): whole GET /session, incl. new Request", run: () => appauth.handle(sessionRequest()) },
    { label: "  new Request(url, { cookie }) [outside the bench's clock]", run: () => sessionRequest() },
    { label: "  getRuntime(config) (cached lookup)", run: () => getRuntime(config) },
    { label: "  buildContext(rt, request), incl. new Request", run: () => buildContext(rt, sessionRequest(), ROUTE_PATHS) },
    { label: "    parseCookies(cookie header)", run: () => parseCookies(fixture.signedInCookies) },
    { label: "  readSessionCookie(rt, ctx)", run: () => readSessionCookie(rt, ctx) },
    { label: "  handleSession(): machine + effects + plan", run: () => handleSession(rt, machines, ctx) },
    { label: "    runFlow(bound machine) with real effects", run: () => runFlow(rt, bound, input, ctx) },
    { label: "    runFlow(machine) with instant effects = XState cost", run: () => runFlow(rt, instant, input, ctx) },
    {
      label: "    createActor+start+stop of a one-state machine",
      run: () => {
        const actor = createActor(trivial);
        actor.start();
        actor.stop();
      },
    },
    { label: "    the same effects with no machine", run: withoutMachine },
    { label: "      decodeWithSecretIndex (parse + key + HMAC + AES)", run: () => decodeWithSecretIndex({ token, secret: rt.secrets, salt }) },
    { label: "        parseJwe(token)", run: () => parseJwe(token) },
    { label: "        sessionKey(secret, salt) (cached)", run: () => sessionKey(rt.secrets[0]!, salt) },
    { label: "        openJwe (subtle HMAC-SHA-512 + AES-CBC decrypt)", run: () => openJwe(jwe, key) },
    { label: "        subtle.sign HMAC-SHA-512 alone", run: () => crypto.subtle.sign("HMAC", key.macKey, macInput) },
    {
      label: "        subtle.decrypt AES-256-CBC alone",
      run: () => crypto.subtle.decrypt({ name: "AES-CBC", iv: jwe.iv }, aesKey, aesCiphertext),
    },
    { label: "        node:crypto createHmac sha512 (sync, for scale)", run: () => createHmac("sha512", rawKey.subarray(0, 32)).update(macInput).digest() },
    {
      label: "        node:crypto createDecipheriv aes-256-cbc (sync, for scale)",
      run: () => {
        const d = createDecipheriv("aes-256-cbc", rawKey.subarray(32), jwe.iv);
        return Buffer.concat([d.update(aesCiphertext), d.final()]);
      },
    },
    { label: "  toResponse(plan)", run: () => toResponse(plan, { returnRedirect: false }) },
  ];

  await measurePieces("appauth GET /session, piece by piece", pieces, options);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
