/** Verification tokens: single use, bound to their identifier, one winner under concurrency. */
import { describe, expect } from "vitest";
import { contractTest, expectSameInstant, ruleTest, type SuiteContext } from "./context.js";
import { sampleToken, unique } from "./fixtures.js";

export function describeVerificationTokens(ctx: SuiteContext): void {
  const { method } = ctx;

  describe("verification tokens", () => {
    contractTest(ctx, "stores a token and returns it once, with its expiry as a Date", async () => {
      const token = sampleToken();
      const created = await method("createVerificationToken")(token);
      if (created) expect(created).toMatchObject({ identifier: token.identifier, token: token.token });

      const used = await method("useVerificationToken")({ identifier: token.identifier, token: token.token });
      expect(used).toMatchObject({ identifier: token.identifier, token: token.token });
      expectSameInstant(used?.expires, token.expires);
      expect(await method("useVerificationToken")({ identifier: token.identifier, token: token.token })).toBeNull();
    });

    contractTest(ctx, "answers null for an unknown token", async () => {
      const token = sampleToken();
      expect(await method("useVerificationToken")(token)).toBeNull();
    });

    contractTest(ctx, "binds a token to its identifier: another identifier gets null and does not consume it", async () => {
      const token = sampleToken();
      await method("createVerificationToken")(token);
      const wrong = await method("useVerificationToken")({ identifier: `eve.${unique()}@example.com`, token: token.token });
      expect(wrong).toBeNull();
      const right = await method("useVerificationToken")({ identifier: token.identifier, token: token.token });
      expect(right).toMatchObject({ identifier: token.identifier, token: token.token });
    });

    contractTest(ctx, "keeps tokens of the same identifier apart", async () => {
      const first = sampleToken();
      const second = sampleToken({ identifier: first.identifier });
      await method("createVerificationToken")(first);
      await method("createVerificationToken")(second);
      expect(await method("useVerificationToken")(first)).toMatchObject({ token: first.token });
      expect(await method("useVerificationToken")(second)).toMatchObject({ token: second.token });
    });

    ruleTest(ctx, "lets exactly one of two concurrent uses of a token win", async () => {
      const token = sampleToken();
      await method("createVerificationToken")(token);
      const params = { identifier: token.identifier, token: token.token };
      const results = await Promise.all([
        method("useVerificationToken")(params),
        method("useVerificationToken")(params),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });
  });
}
