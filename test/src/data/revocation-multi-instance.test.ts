/**
 * JWT sessions revoked across instances (issue 32): two Node processes serve `Auth` with JWT sessions
 * and one shared store (PostgreSQL, then Redis). A cookie taken from a signed-in browser keeps opening
 * on instance B until the application revokes every session of its user on instance A; from then on
 * B refuses it, because A's revocation reached B's cache through the store's notification (LISTEN/NOTIFY,
 * pub/sub). The acceptance: refused within 1 s at p99 over 100 trials. The deadline is a
 * functional one (how long a thief keeps access), asserted as such; the figure is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET, SESSION_COOKIE } from "../../helpers/config.js";
import { setCookieNamed, setCookiesOf } from "../../helpers/set-cookie.js";
import { postgresAvailability, redisAvailability } from "../adapters/servers.js";
import { sharedPostgres, sharedRedis, startInstance, type Instance, type SharedStore } from "./instances.js";
import type { AdapterUser } from "../../../src/types.js";

const BASE_PATH = "/api/auth";
const PASSWORD = "correct horse battery staple";
const TRIALS = 100;
/** The bound on the time from revocation to refusal, at the 99th percentile. */
const P99_BOUND_MS = 1_000;
/** One trial gives up here: a cookie still open by then is a failure, not a slow trial. */
const GIVE_UP_MS = 10_000;

/** Signs `user` in on `instance` with the credentials form; resolves to the session cookie (`name=value`). */
async function signIn(instance: Instance, user: AdapterUser): Promise<string> {
  const csrfResponse = await fetch(`${instance.origin}${BASE_PATH}/csrf`);
  const csrfCookie = setCookiesOf(csrfResponse).map((cookie) => `${cookie.name}=${cookie.raw}`).join("; ");
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const response = await fetch(`${instance.origin}${BASE_PATH}/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email: user.email!, password: PASSWORD }),
  });
  const issued = setCookieNamed(response, SESSION_COOKIE);
  expect(issued, instance.stderr()).toBeDefined();
  return `${SESSION_COOKIE}=${issued!.raw}`;
}

/** The email of the session `cookie` opens on `instance`, or null when it opens none. */
async function sessionEmail(instance: Instance, cookie: string): Promise<string | null> {
  const response = await fetch(`${instance.origin}${BASE_PATH}/session`, { headers: { cookie } });
  expect(response.status, instance.stderr()).toBe(200);
  const session = (await response.json()) as { user?: { email?: string } } | null;
  return session?.user?.email ?? null;
}

async function revokeAll(instance: Instance, userId: string): Promise<void> {
  const response = await fetch(`${instance.origin}/test/revoke-sessions`, { method: "POST", body: JSON.stringify({ userId }) });
  expect(response.status, instance.stderr()).toBe(204);
}

/** Milliseconds from the revocation on `a` until `b` refuses `cookie` (asking as fast as it answers). */
async function timeToRefusal(a: Instance, b: Instance, userId: string, cookie: string): Promise<number> {
  const started = performance.now();
  await revokeAll(a, userId);
  while ((await sessionEmail(b, cookie)) !== null) {
    if (performance.now() - started > GIVE_UP_MS) return Number.POSITIVE_INFINITY;
  }
  return performance.now() - started;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function describeRevocation(storeName: string, skip: string | undefined, prepare: () => Promise<SharedStore>): void {
  (skip === undefined ? describe : describe.skip)(`JWT sessions revoked on one of two instances sharing ${storeName}`, () => {
    let store: SharedStore | undefined;
    const instances: Instance[] = [];
    const users: AdapterUser[] = [];

    beforeAll(async () => {
      store = await prepare();
      for (const name of ["Ada", "Grace"]) {
        users.push(
          await store.adapter.createUser!({
            id: crypto.randomUUID(),
            name,
            email: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`,
            emailVerified: new Date(),
            image: null,
          }),
        );
      }
      const env = {
        ...store.env,
        APPAUTH_INSTANCE_SECRET: SECRET,
        APPAUTH_INSTANCE_PASSWORD: PASSWORD,
        APPAUTH_INSTANCE_SESSION: "jwt",
        APPAUTH_INSTANCE_RATE_LIMIT: "off",
      };
      // Started together (each takes seconds); whatever did start is kept, so afterAll stops it.
      const started = await Promise.allSettled([startInstance(env), startInstance(env)]);
      for (const result of started) if (result.status === "fulfilled") instances.push(result.value);
      const failed = started.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      if (store) expect(await store.remove()).toBe(true);
    });

    it(`refuses on B a cookie taken before revokeAllSessions on A, within ${P99_BOUND_MS} ms at p99 over ${TRIALS} trials`, async () => {
      const [a, b] = instances as [Instance, Instance];
      const ada = users[0]!;
      const times: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const stolen = await signIn(a, ada);
        // B has read it (its cache knows Ada): the revocation must reach B, not a first look-up.
        expect(await sessionEmail(b, stolen)).toBe(ada.email);
        times.push(await timeToRefusal(a, b, ada.id, stolen));
      }
      const sorted = [...times].sort((x, y) => x - y);
      const p99 = percentile(sorted, 99);
      console.log(`${storeName}: revocation to refusal on the other instance over ${TRIALS} trials: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
      expect(sorted.at(-1), "a revoked cookie still opened after the trial gave up").toBeLessThan(Number.POSITIVE_INFINITY);
      expect(p99).toBeLessThanOrEqual(P99_BOUND_MS);
    });

    it("keeps the other user's sessions, and the revoked user's sessions signed in after the revocation", async () => {
      const [a, b] = instances as [Instance, Instance];
      const [ada, grace] = users as [AdapterUser, AdapterUser];
      const graces = await signIn(b, grace);
      const before = await signIn(a, ada);
      await revokeAll(a, ada.id);
      const after = await signIn(a, ada);
      for (const instance of [a, b]) {
        expect(await sessionEmail(instance, graces)).toBe(grace.email);
        expect(await sessionEmail(instance, after)).toBe(ada.email);
      }
      // The earlier one is refused on both (B may need its notice: asked until it answers).
      expect(await sessionEmail(a, before)).toBeNull();
      const started = performance.now();
      while ((await sessionEmail(b, before)) !== null) expect(performance.now() - started).toBeLessThan(GIVE_UP_MS);
    });
  });
}

describeRevocation("one PostgreSQL database", await postgresAvailability(), sharedPostgres);
describeRevocation("one Redis key prefix", await redisAvailability(), sharedRedis);
