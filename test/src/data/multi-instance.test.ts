/**
 * Several app instances, one store (DESIGN §5: "Redis holds sessions ... for deployments with many
 * app instances"). Two separate Node processes serve `Auth` with the same secret and database
 * sessions in the same PostgreSQL database, then the same Redis key prefix. A browser signs in on
 * instance A; instance B knows the session; signing out on B ends it on A. Everything goes over
 * real HTTP with fetch, the cookies carried by hand, as a load balancer would mix them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_COOKIE, SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { isDeletion, setCookieNamed, setCookiesOf } from "../../helpers/set-cookie.js";
import { postgresAvailability, redisAvailability } from "../adapters/servers.js";
import { sharedPostgres, sharedRedis, startInstance, type Instance, type SharedStore } from "./instances.js";
import type { AdapterUser } from "../../../src/types.js";

const BASE_PATH = "/api/auth";
const PASSWORD = "correct horse battery staple";

/** A browser's cookies, by name, as received (raw). */
type Jar = Map<string, string>;

function keep(jar: Jar, response: Response): void {
  for (const cookie of setCookiesOf(response)) {
    if (isDeletion(cookie)) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.raw);
  }
}

function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, raw]) => `${name}=${raw}`).join("; ");
}

/** GET /csrf on `instance`: the token, with the CSRF cookie kept in `jar`. */
async function csrf(instance: Instance, jar: Jar): Promise<string> {
  const response = await fetch(`${instance.origin}${BASE_PATH}/csrf`, { headers: { cookie: cookieHeader(jar) } });
  expect(response.status).toBe(200);
  keep(jar, response);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** A form POST, as a browser's: the jar's cookies, no redirect followed; the jar keeps what comes back. */
async function post(instance: Instance, path: string, jar: Jar, form: Record<string, string>): Promise<Response> {
  const response = await fetch(`${instance.origin}${BASE_PATH}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
    body: new URLSearchParams(form),
  });
  keep(jar, response);
  return response;
}

/** GET /session on `instance` with only `sessionCookie`, parsed. */
async function sessionOn(instance: Instance, sessionCookie: string): Promise<unknown> {
  const response = await fetch(`${instance.origin}${BASE_PATH}/session`, { headers: { cookie: sessionCookie } });
  expect(response.status).toBe(200);
  return response.json();
}

function describeTwoInstances(storeName: string, skip: string | undefined, prepare: () => Promise<SharedStore>): void {
  (skip === undefined ? describe : describe.skip)(`two app instances sharing ${storeName}`, () => {
    let store: SharedStore | undefined;
    const instances: Instance[] = [];
    let user: AdapterUser;

    beforeAll(async () => {
      store = await prepare();
      user = await store.adapter.createUser!({
        id: crypto.randomUUID(),
        name: "Ada Lovelace",
        email: `ada-${crypto.randomUUID().slice(0, 8)}@example.com`,
        emailVerified: null,
        image: null,
      });
      const env = { ...store.env, APPAUTH_INSTANCE_SECRET: SECRET, APPAUTH_INSTANCE_PASSWORD: PASSWORD };
      // Started one by one, each kept as soon as it runs, so afterAll stops whatever did start.
      for (let i = 0; i < 2; i++) instances.push(await startInstance(env));
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      if (store) expect(await store.remove()).toBe(true);
    });

    it("reads on instance B a session signed in on instance A, and ends it on A when signed out on B", async () => {
      const [a, b] = instances as [Instance, Instance];
      expect(a.pid).not.toBe(b.pid);

      const browserA: Jar = new Map();
      const signIn = await post(a, "/callback/credentials", browserA, {
        csrfToken: await csrf(a, browserA),
        email: user.email!,
        password: PASSWORD,
        callbackUrl: `${a.origin}/dashboard`,
      });
      expect(signIn.status, a.stderr()).toBe(302);
      expect(signIn.headers.get("location")).toBe(`${a.origin}/dashboard`);
      const issued = setCookieNamed(signIn, SESSION_COOKIE);
      expect(issued).toBeDefined();
      const sessionCookie = `${SESSION_COOKIE}=${issued!.raw}`;
      // A database session: the cookie holds a token, the record lives in the shared store.
      expect(await store!.adapter.getSessionAndUser!(issued!.value)).toMatchObject({ user: { id: user.id } });

      const expected = { user: { email: user.email, name: "Ada Lovelace" } };
      expect(await sessionOn(a, sessionCookie)).toMatchObject(expected);
      expect(await sessionOn(b, sessionCookie), b.stderr()).toMatchObject(expected);

      // Signing out on B, with B's own CSRF pair.
      const browserB: Jar = new Map([[SESSION_COOKIE, issued!.raw]]);
      const signOut = await post(b, "/signout", browserB, { csrfToken: await csrf(b, browserB) });
      expect(browserB.has(CSRF_COOKIE)).toBe(true);
      expect(signOut.status, b.stderr()).toBe(302);
      expect(browserB.has(SESSION_COOKIE)).toBe(false);

      expect(await sessionOn(a, sessionCookie), a.stderr()).toBeNull();
      expect(await store!.adapter.getSessionAndUser!(issued!.value)).toBeNull();
    });

    it("share one password-guessing budget: 3 wrong passwords on A and 2 on B, then even the right one is refused on either", async () => {
      const [a, b] = instances as [Instance, Instance];
      const target = await store!.adapter.createUser!({
        id: crypto.randomUUID(),
        name: "Grace Hopper",
        email: `grace-${crypto.randomUUID().slice(0, 8)}@example.com`,
        emailVerified: null,
        image: null,
      });
      const attempt = async (instance: Instance, password: string) => {
        const browser: Jar = new Map();
        const response = await post(instance, "/callback/credentials", browser, {
          csrfToken: await csrf(instance, browser),
          email: target.email!,
          password,
        });
        expect(response.status, instance.stderr()).toBe(302);
        return new URL(response.headers.get("location")!).searchParams.get("error");
      };
      const answers = [];
      for (const instance of [a, a, a, b, b]) answers.push(await attempt(instance, "a wrong guess"));
      expect(answers).toEqual(Array(5).fill("CredentialsSignin"));
      // Each instance alone has seen at most 3: only the shared count refuses now, before authorize.
      expect(await attempt(b, PASSWORD)).toBe("RateLimited");
      expect(await attempt(a, PASSWORD)).toBe("RateLimited");
    });
  });
}

describeTwoInstances("one PostgreSQL database", await postgresAvailability(), sharedPostgres);
describeTwoInstances("one Redis key prefix", await redisAvailability(), sharedRedis);
