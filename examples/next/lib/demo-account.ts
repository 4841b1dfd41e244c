/**
 * The demo's one password account, checked in time that does not depend on where (or whether) the
 * typed values differ. Web Crypto only, so the check runs wherever the route handler runs.
 */
import type { User } from "appauth";

export const DEMO_ACCOUNT = {
  username: "demo",
  password: "demo",
  user: { id: "demo-user", name: "Demo User", email: "demo@example.com" },
} as const;

async function digest(text: unknown): Promise<Uint8Array> {
  const bytes = new TextEncoder().encode(typeof text === "string" ? text : "");
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

async function sameText(given: unknown, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0 && typeof given === "string";
}

/** The demo user for the right username and password, else `null`. Both fields are always checked. */
export async function checkDemoAccount(username: unknown, password: unknown): Promise<User | null> {
  const [userOk, passwordOk] = await Promise.all([sameText(username, DEMO_ACCOUNT.username), sameText(password, DEMO_ACCOUNT.password)]);
  return userOk && passwordOk ? { ...DEMO_ACCOUNT.user } : null;
}

/** The part of an adapter that keeps the demo user. */
interface UserStore {
  getUser?(id: string): unknown;
  createUser?(user: { id: string; name: string; email: string; emailVerified: null }): unknown;
}

/**
 * `checkDemoAccount`, with the demo user stored in `adapter` the first time it signs in: second
 * factors (`twoFactor`) are kept per stored user. Storing it may fail (another request stored it
 * first, or an email sign-in already took the address): signing in goes on.
 */
export async function checkStoredDemoAccount(adapter: UserStore, username: unknown, password: unknown): Promise<User | null> {
  const user = await checkDemoAccount(username, password);
  if (user && !(await adapter.getUser?.(DEMO_ACCOUNT.user.id))) {
    await Promise.resolve(adapter.createUser?.({ ...DEMO_ACCOUNT.user, emailVerified: null })).catch(() => undefined);
  }
  return user;
}
