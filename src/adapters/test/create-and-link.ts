/** The optional createUserAndLinkAccount extension: both writes or neither. */
import { describe, expect, it } from "vitest";
import type { AdapterUser } from "../../types.js";
import type { ExtendedAdapter } from "../extensions.js";
import type { SuiteContext } from "./context.js";
import { sampleAccount, sampleUser } from "./fixtures.js";

export function describeCreateUserAndLinkAccount(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;
  const extension = (): NonNullable<ExtendedAdapter["createUserAndLinkAccount"]> | undefined => {
    const adapter = ctx.adapter();
    return adapter?.createUserAndLinkAccount?.bind(adapter);
  };

  // Checked wherever the adapter has it, whatever the level: an adapter that offers it must keep its promise.
  describe("createUserAndLinkAccount (optional extension)", () => {
    it("extension createUserAndLinkAccount: creates the user and links the account together", async ({ skip }) => {
      const createAndLink = extension();
      if (!createAndLink) return skip("not implemented by this adapter");
      const input = sampleUser();
      const { userId: _none, ...account } = sampleAccount("");
      const created = await createAndLink(input, account);
      expect(created).toMatchObject({ id: input.id, email: input.email });
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: input.id });
      expect(await method("getAccount")(account.providerAccountId, account.provider)).toMatchObject({
        userId: input.id,
        access_token: account.access_token,
        expires_at: account.expires_at,
      });
    });

    it("extension createUserAndLinkAccount: assigns an id when the user has none and links the account to it", async ({ skip }) => {
      const createAndLink = extension();
      if (!createAndLink) return skip("not implemented by this adapter");
      const { id: _omitted, ...input } = sampleUser();
      const account = sampleAccount("");
      const created = await createAndLink(input as AdapterUser, account);
      expect(created.id.length).toBeGreaterThan(0);
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: created.id });
    });

    it("extension createUserAndLinkAccount: creates no user when the account cannot be linked", async ({ skip }) => {
      const createAndLink = extension();
      if (!createAndLink) return skip("not implemented by this adapter");
      const owner = await createdUser();
      const account = sampleAccount(owner.id);
      await method("linkAccount")(account);

      const newcomer = sampleUser();
      await expect(createAndLink(newcomer, account)).rejects.toThrow();
      expect(await method("getUser")(newcomer.id)).toBeNull();
      expect(await method("getUserByEmail")(newcomer.email!)).toBeNull();
      expect(await method("getUserByAccount")(account)).toMatchObject({ id: owner.id });
    });
  });
}
