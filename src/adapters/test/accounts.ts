/** Accounts: linking, lookups by provider account, snake_case OAuth values as stored, unlinking. */
import { describe, expect } from "vitest";
import { attempt, checksOptional, contractTest, ruleTest, type SuiteContext } from "./context.js";
import { sampleAccount, unique } from "./fixtures.js";

export function describeAccounts(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;
  const hasGetAccount = (): boolean => checksOptional(ctx, "getAccount");

  describe("accounts", () => {
    contractTest(
      ctx,
      "links an account and round-trips the snake_case OAuth values as stored",
      async () => {
        const user = await createdUser();
        const account = sampleAccount(user.id);
        await method("linkAccount")(account);

        const read = await method("getAccount")(account.providerAccountId, account.provider);
        expect(read).toMatchObject({
          userId: user.id,
          type: "oidc",
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          access_token: account.access_token,
          refresh_token: account.refresh_token,
          expires_at: account.expires_at,
          token_type: "bearer",
          scope: "openid email profile",
          id_token: account.id_token,
          session_state: account.session_state,
        });
        expect(typeof read?.expires_at).toBe("number");
      },
      ["getAccount"],
    );

    contractTest(ctx, "finds the user through a linked account, and null for an unknown one", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id, { provider: "github", type: "oauth" });
      await method("linkAccount")(account);
      const found = await method("getUserByAccount")({ provider: "github", providerAccountId: account.providerAccountId });
      expect(found).toMatchObject({ id: user.id, email: user.email });
      expect(await method("getUserByAccount")({ provider: "github", providerAccountId: unique() })).toBeNull();
      // The provider is part of the key: the same account id at another provider is someone else.
      expect(
        await method("getUserByAccount")({ provider: "gitlab", providerAccountId: account.providerAccountId }),
      ).toBeNull();
    });

    contractTest(ctx, "answers null from getAccount for an unknown account", async () => {
      expect(await method("getAccount")(unique(), "example-oidc")).toBeNull();
    }, ["getAccount"]);

    contractTest(ctx, "keeps several accounts of one user apart", async () => {
      const user = await createdUser();
      const first = sampleAccount(user.id, { provider: "github", type: "oauth", scope: "read:user" });
      const second = sampleAccount(user.id, { provider: "google", scope: "openid" });
      await method("linkAccount")(first);
      await method("linkAccount")(second);
      expect(await method("getUserByAccount")(first)).toMatchObject({ id: user.id });
      expect(await method("getUserByAccount")(second)).toMatchObject({ id: user.id });
      if (!hasGetAccount()) return;
      expect(await method("getAccount")(first.providerAccountId, "github")).toMatchObject({ scope: "read:user" });
      expect(await method("getAccount")(second.providerAccountId, "google")).toMatchObject({ scope: "openid" });
    });

    contractTest(ctx, "stores an account with only the required fields", async () => {
      const user = await createdUser();
      const account = { userId: user.id, type: "email", provider: "email", providerAccountId: user.email! } as const;
      await method("linkAccount")(account);
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: user.id });
      if (!hasGetAccount()) return;
      const read = await method("getAccount")(user.email!, "email");
      expect(read).toMatchObject(account);
      expect(read?.access_token ?? undefined).toBeUndefined();
    });

    ruleTest(ctx, "tolerates extra provider fields on an account", async () => {
      const user = await createdUser();
      const account = { ...sampleAccount(user.id), refresh_token_expires_in: 7200, "not-before-policy": 0 };
      await method("linkAccount")(account);
      expect(await method("getAccount")(account.providerAccountId, account.provider)).toMatchObject({
        access_token: account.access_token,
      });
    });

    ruleTest(ctx, "rejects linking a provider account that is already linked", async () => {
      const [owner, other] = [await createdUser(), await createdUser()];
      const account = sampleAccount(owner.id);
      await method("linkAccount")(account);
      await expect(attempt(() => method("linkAccount")({ ...account, userId: other.id }))).rejects.toThrow();
      const found = await method("getUserByAccount")(account);
      expect(found?.id).toBe(owner.id);
    });

    contractTest(ctx, "unlinks an account", async () => {
      const user = await createdUser();
      const account = sampleAccount(user.id);
      await method("linkAccount")(account);
      await method("unlinkAccount")({ provider: account.provider, providerAccountId: account.providerAccountId });
      expect(await method("getUserByAccount")(account)).toBeNull();
      expect(await method("getUser")(user.id)).toMatchObject({ id: user.id });
      if (hasGetAccount()) expect(await method("getAccount")(account.providerAccountId, account.provider)).toBeNull();
    }, ["unlinkAccount"]);
  });
}
