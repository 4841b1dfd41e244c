/**
 * Sessions linked to the provider sign-in behind them (provider, providerAccountId, providerSessionId),
 * and the deleteSessionsByAccount extension a back-channel logout ends them with.
 */
import { describe, expect } from "vitest";
import type { AdapterSession } from "../../types.js";
import { attempt, extensionTest, type SuiteContext } from "./context.js";
import { sampleSession, unique } from "./fixtures.js";

export function describeSessionLinks(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  /** A session of a fresh user signed in through `link` (fields left out are not set). */
  async function linkedSession(link: Partial<AdapterSession>, userId?: string): Promise<AdapterSession> {
    const owner = userId ?? (await createdUser()).id;
    return method("createSession")(sampleSession(owner, link));
  }

  async function alive(session: AdapterSession): Promise<boolean> {
    return (await method("getSessionAndUser")(session.sessionToken)) !== null;
  }

  describe("session links and deleteSessionsByAccount (extension)", () => {
    extensionTest(ctx, ["deleteSessionsByAccount"], "stores the provider sign-in behind a session and reads it back", async () => {
      const link = { provider: `idp-${unique()}`, providerAccountId: `sub-${unique()}`, providerSessionId: `sid-${unique()}` };
      const created = await linkedSession(link);
      expect(created).toMatchObject(link);
      expect((await method("getSessionAndUser")(created.sessionToken))?.session).toMatchObject({
        ...link,
        sessionToken: created.sessionToken,
      });
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "reads a session created without a provider sign-in with none", async () => {
      const created = await linkedSession({});
      const found = await method("getSessionAndUser")(created.sessionToken);
      expect(found?.session.provider ?? null).toBeNull();
      expect(found?.session.providerAccountId ?? null).toBeNull();
      expect(found?.session.providerSessionId ?? null).toBeNull();
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "deletes every session of a provider account, and only those", async () => {
      const provider = `idp-${unique()}`;
      const sub = `sub-${unique()}`;
      const user = await createdUser();
      const mine = [
        await linkedSession({ provider, providerAccountId: sub, providerSessionId: `sid-${unique()}` }, user.id),
        await linkedSession({ provider, providerAccountId: sub }, user.id),
      ];
      const others = [
        await linkedSession({ provider, providerAccountId: `sub-${unique()}` }),
        // The same account id at another provider is another account.
        await linkedSession({ provider: `idp-${unique()}`, providerAccountId: sub }, user.id),
        // The user's sessions from other sign-ins (email, passkey) have no provider account.
        await linkedSession({}, user.id),
      ];

      expect(await method("deleteSessionsByAccount")({ provider, providerAccountId: sub })).toBe(2);
      for (const session of mine) expect(await alive(session)).toBe(false);
      for (const session of others) expect(await alive(session)).toBe(true);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "deletes the sessions of one provider session, and keeps the account's others", async () => {
      const provider = `idp-${unique()}`;
      const [sub, sid] = [`sub-${unique()}`, `sid-${unique()}`];
      const user = await createdUser();
      const ended = await linkedSession({ provider, providerAccountId: sub, providerSessionId: sid }, user.id);
      const kept = [
        await linkedSession({ provider, providerAccountId: sub, providerSessionId: `sid-${unique()}` }, user.id),
        await linkedSession({ provider: `idp-${unique()}`, providerAccountId: sub, providerSessionId: sid }, user.id),
      ];

      expect(await method("deleteSessionsByAccount")({ provider, providerSessionId: sid })).toBe(1);
      expect(await alive(ended)).toBe(false);
      for (const session of kept) expect(await alive(session)).toBe(true);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "deletes only the sessions matching both the account and the provider session when given both", async () => {
      const provider = `idp-${unique()}`;
      const [sub, sid] = [`sub-${unique()}`, `sid-${unique()}`];
      const ended = await linkedSession({ provider, providerAccountId: sub, providerSessionId: sid });
      const kept = [
        await linkedSession({ provider, providerAccountId: sub, providerSessionId: `sid-${unique()}` }),
        await linkedSession({ provider, providerAccountId: `sub-${unique()}`, providerSessionId: sid }),
        await linkedSession({ provider, providerAccountId: sub }),
      ];

      const filter = { provider, providerAccountId: sub, providerSessionId: sid };
      expect(await method("deleteSessionsByAccount")(filter)).toBe(1);
      expect(await alive(ended)).toBe(false);
      for (const session of kept) expect(await alive(session)).toBe(true);
      expect(await method("deleteSessionsByAccount")(filter)).toBe(0);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "answers 0 when no session matches", async () => {
      const provider = `idp-${unique()}`;
      expect(await method("deleteSessionsByAccount")({ provider, providerAccountId: `sub-${unique()}` })).toBe(0);
      expect(await method("deleteSessionsByAccount")({ provider, providerSessionId: `sid-${unique()}` })).toBe(0);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "does not count a session that was deleted already", async () => {
      const link = { provider: `idp-${unique()}`, providerAccountId: `sub-${unique()}`, providerSessionId: `sid-${unique()}` };
      const session = await linkedSession(link);
      await method("deleteSession")(session.sessionToken);
      expect(await method("deleteSessionsByAccount")({ provider: link.provider, providerAccountId: link.providerAccountId })).toBe(0);
      expect(await method("deleteSessionsByAccount")({ provider: link.provider, providerSessionId: link.providerSessionId })).toBe(0);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "still finds a session after its expiry was extended", async () => {
      const link = { provider: `idp-${unique()}`, providerAccountId: `sub-${unique()}` };
      const session = await linkedSession(link);
      await method("updateSession")({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 90 * 86_400_000) });
      expect(await method("deleteSessionsByAccount")(link)).toBe(1);
      expect(await alive(session)).toBe(false);
    });

    extensionTest(ctx, ["deleteSessionsByAccount"], "refuses a filter that names neither an account nor a provider session, and deletes nothing", async () => {
      const provider = `idp-${unique()}`;
      const session = await linkedSession({ provider, providerAccountId: `sub-${unique()}` });
      await expect(attempt(() => method("deleteSessionsByAccount")({ provider }))).rejects.toThrow(TypeError);
      expect(await alive(session)).toBe(true);
    });
  });
}
