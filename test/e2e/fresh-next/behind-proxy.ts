/**
 * A fresh app's built server behind a loopback reverse proxy (test/helpers/reverse-proxy.ts), and
 * the tests a fresh app's suite registers with `describeBehindProxy`: visitors over plain HTTP
 * (./visitor-http.ts) from distinct loopback addresses. The app is a second server of the suite's
 * build, started with the variable that configures it for the proxy (the suite's own server keeps
 * its configuration).
 */
import { describe, expect, it } from "vitest";
import { startReverseProxy, visitor } from "../../helpers/reverse-proxy.js";
import { startServer, type FreshApp, type ServerCommand } from "./harness.js";
import { credentialsSignIn, type Visit } from "./visitor-http.js";

/** The app's server and the proxy in front of it. */
export interface ServedBehindProxy {
  /** The app's public URL: the proxy's. */
  site: string;
  /** The port visitors reach the app through (the proxy's). */
  port: number;
  /** The app's own port: a visitor who goes around the proxy. */
  appPort: number;
  /** The app's last lines. */
  output(): string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy, then `command` in `app` with `env` added and the proxy's address as its public
 * URL (AUTH_URL), as a deployment behind a proxy is configured.
 */
async function serveBehindProxy(app: FreshApp, command: ServerCommand, env: NodeJS.ProcessEnv): Promise<ServedBehindProxy> {
  let appPort = 0;
  const proxy = await startReverseProxy(() => appPort);
  const site = `http://127.0.0.1:${proxy.port}`;
  const server = await startServer(app, { ...command, env: { ...command.env, AUTH_URL: site, ...env } }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  appPort = Number(new URL(server.url).port);
  return {
    site,
    port: proxy.port,
    appPort,
    output: server.output,
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

/**
 * Runs `test` against a second server of `app` started with TRUST_PROXY=1 (the templates read it
 * as `rateLimit: { trustProxy: 1 }`) behind a proxy; prints the server's last lines if it fails.
 */
async function withAppBehindProxy(app: FreshApp, command: ServerCommand, test: (behind: ServedBehindProxy) => Promise<void>): Promise<void> {
  const behind = await serveBehindProxy(app, command, { TRUST_PROXY: "1" });
  try {
    await test(behind);
  } catch (error) {
    console.error(`[${command.name} behind a proxy] the app printed:\n${behind.output().slice(-40).join("\n")}`);
    throw error;
  } finally {
    await behind.close();
  }
}

/** A wrong password for `username` from `visit`, its attempt's number in the password; what the app answered. */
export type Guess<T> = (username: string, visit: Visit, attempt: number) => Promise<T>;

/** Wrong passwords for one name from two visitors: six from the first, then one from the second. */
export interface TwoVisitors<T> {
  first: T[];
  second: T[];
}

async function twoVisitorsGuess<T>(username: string, visits: [Visit, Visit], guess: Guess<T>): Promise<TwoVisitors<T>> {
  const first: T[] = [];
  for (let attempt = 1; attempt <= 6; attempt++) first.push(await guess(username, visits[0], attempt));
  return { first, second: [await guess(username, visits[1], 7)] };
}

/** What `passwordBudgets` saw through the proxy and around it. */
export interface PasswordBudgets<T> {
  throughProxy: TwoVisitors<T>;
  aroundProxy: TwoVisitors<T>;
}

/**
 * Wrong passwords, sent with `guess`, to an app behind a proxy: for one name from two visitors
 * through the proxy, then for another name from two visitors who reach the app around the proxy
 * (no X-Forwarded-For: their connection's address is all there is).
 */
async function passwordBudgets<T>(behind: ServedBehindProxy, guess: Guess<T>): Promise<PasswordBudgets<T>> {
  const through = (n: number): Visit => ({ port: behind.port, from: visitor(n), site: behind.site });
  const around = (n: number): Visit => ({ port: behind.appPort, from: visitor(n), site: behind.site });
  return {
    throughProxy: await twoVisitorsGuess("grace", [through(0), through(1)], guess),
    aroundProxy: await twoVisitorsGuess("hopper", [around(2), around(3)], guess),
  };
}

/**
 * `passwordBudgets` when each visitor has their own budget (five wrong passwords per name and
 * client address): the first visitor's sixth is `refused` unchecked, the second visitor's first is `checked`.
 */
function eachVisitorCounted<T>(checked: T, refused: T): PasswordBudgets<T> {
  const twoVisitors = { first: [...Array<T>(5).fill(checked), refused], second: [checked] };
  return { throughProxy: twoVisitors, aroundProxy: twoVisitors };
}

/** `Guess` through the library's credentials route at `basePath`: the redirect's `error`. */
const credentialsGuess =
  (basePath: string): Guess<string | null> =>
  (username, visit, attempt) =>
    credentialsSignIn(visit, basePath, { username, password: `guess ${attempt}` });

/** How a fresh app's suite describes itself to `describeBehindProxy`. */
export interface BehindProxySuite {
  /** The suite's built app, and the command that serves it. */
  app(): FreshApp;
  server: ServerCommand;
  /** The library's base path (`/auth`, `/api/auth`). */
  basePath: string;
  /** Where the integration finds the connection's address, for the tests' names. */
  platformAddress: string;
  /** A wrong password through the app's sign-in action, and its answers when checked and when refused unchecked. */
  action: { guess: Guess<string>; checked: string; refused: string };
}

/**
 * The suite's tests behind a reverse proxy with `trustProxy: 1`, each against a server of its
 * own: the credentials route's and the sign-in action's wrong passwords, counted per visitor.
 */
export function describeBehindProxy(app: BehindProxySuite): void {
  describe("behind a reverse proxy, with trustProxy: 1 (plain HTTP from distinct loopback addresses)", () => {
    it(`counts each visitor by the address the proxy saw, and one who goes around the proxy by their connection (${app.platformAddress}): one visitor's sixth wrong password for a name is refused unchecked, another's first is checked`, async () => {
      await withAppBehindProxy(app.app(), app.server, async (behind) => {
        expect(await passwordBudgets(behind, credentialsGuess(app.basePath))).toEqual(eachVisitorCounted("CredentialsSignin", "RateLimited"));
      });
    });

    it("counts the sign-in action's wrong passwords the same way, through the proxy and around it", async () => {
      await withAppBehindProxy(app.app(), app.server, async (behind) => {
        expect(await passwordBudgets(behind, app.action.guess)).toEqual(eachVisitorCounted(app.action.checked, app.action.refused));
      });
    });
  });
}
