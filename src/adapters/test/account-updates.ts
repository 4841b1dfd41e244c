/** The updateAccount extension: only the given fields change, null clears, the identity never moves. */
import { describe, expect } from "vitest";
import type { AccountUpdate } from "../extensions.js";
import { extensionTest, type SuiteContext } from "./context.js";
import { sampleAccount, unique } from "./fixtures.js";

export function describeAccountUpdates(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("updateAccount (extension)", () => {
    extensionTest(ctx, ["updateAccount", "getAccount"], "changes only the given fields and answers the account as stored", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      const { provider, providerAccountId } = account;
      const refreshed = { access_token: `at-${unique()}`, expires_at: account.expires_at! + 3600 };

      const updated = await method("updateAccount")({ provider, providerAccountId, ...refreshed, scope: undefined });
      const unchanged = {
        userId: user.id,
        type: "oidc",
        provider,
        providerAccountId,
        refresh_token: account.refresh_token,
        token_type: "bearer",
        scope: "openid email profile",
        id_token: account.id_token,
        session_state: account.session_state,
      };
      expect(updated).toMatchObject({ ...unchanged, ...refreshed });
      expect(await method("getAccount")(providerAccountId, provider)).toMatchObject({ ...unchanged, ...refreshed });
      expect(typeof updated?.expires_at).toBe("number");
    });

    extensionTest(ctx, ["updateAccount", "getAccount"], "clears a field given as null", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      const { provider, providerAccountId } = account;

      const updated = await method("updateAccount")({ provider, providerAccountId, refresh_token: null, id_token: null });
      const read = await method("getAccount")(providerAccountId, provider);
      for (const found of [updated, read]) {
        expect(found?.refresh_token ?? undefined).toBeUndefined();
        expect(found?.id_token ?? undefined).toBeUndefined();
        expect(found).toMatchObject({ access_token: account.access_token, scope: account.scope });
      }
    });

    extensionTest(ctx, ["updateAccount", "getAccount"], "never moves the account to another user or type", async () => {
      const [owner, other] = [await createdUser(), await createdUser()];
      const account = sampleAccount(owner.id);
      await method("linkAccount")(account);
      const { provider, providerAccountId } = account;
      const attempt = { provider, providerAccountId, userId: other.id, type: "oauth", scope: "openid" } as AccountUpdate;

      expect(await method("updateAccount")(attempt)).toMatchObject({ userId: owner.id, type: "oidc", scope: "openid" });
      expect(await method("getAccount")(providerAccountId, provider)).toMatchObject({ userId: owner.id, type: "oidc" });
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: owner.id });
    });

    extensionTest(ctx, ["updateAccount", "getAccount"], "leaves the user's other accounts at the same provider alone", async () => {
      const user = await createdUser();
      const [first, second] = [sampleAccount(user.id), sampleAccount(user.id)];
      await method("linkAccount")(first);
      await method("linkAccount")(second);
      const { provider, providerAccountId } = first;
      await method("updateAccount")({ provider, providerAccountId, access_token: `at-${unique()}`, refresh_token: null });
      expect(await method("getAccount")(second.providerAccountId, second.provider)).toMatchObject({
        access_token: second.access_token,
        refresh_token: second.refresh_token,
      });
    });

    extensionTest(ctx, ["updateAccount", "getAccount"], "loses none of several concurrent updates of different fields", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      const { provider, providerAccountId } = account;
      const changes = {
        access_token: `at-${unique()}`,
        refresh_token: `rt-${unique()}`,
        id_token: `id-${unique()}`,
        scope: `scope-${unique()}`,
        session_state: `ss-${unique()}`,
        expires_at: account.expires_at! + 60,
      };
      await Promise.all(
        Object.entries(changes).map(([field, value]) =>
          method("updateAccount")({ provider, providerAccountId, [field]: value }),
        ),
      );
      expect(await method("getAccount")(providerAccountId, provider)).toMatchObject(changes);
    });

    extensionTest(ctx, ["updateAccount", "getAccount"], "answers null for an account that is not linked, and links none", async () => {
      const update = { provider: "example-oidc", providerAccountId: `sub-${unique()}`, access_token: "at" };
      expect(await method("updateAccount")(update)).toBeNull();
      expect(await method("getAccount")(update.providerAccountId, update.provider)).toBeNull();
    });
  });
}
