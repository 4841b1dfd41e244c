/** Users: create, read by id and email, update; Dates, users without an email, extra fields. */
import { describe, expect } from "vitest";
import type { AdapterUser } from "../../types.js";
import { attempt, contractTest, expectSameInstant, ruleTest, type SuiteContext } from "./context.js";
import { sampleSession, sampleUser, unique } from "./fixtures.js";

export function describeUsers(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("users", () => {
    contractTest(ctx, "creates a user and reads it back by id and by email, Dates as Dates", async () => {
      const input = sampleUser();
      const created = await method("createUser")(input);
      expect(created).toMatchObject({ email: input.email, name: input.name, image: input.image });
      expectSameInstant(created.emailVerified, input.emailVerified as Date);

      const byId = await method("getUser")(created.id);
      expect(byId).toMatchObject({ id: created.id, email: input.email, name: input.name, image: input.image });
      expectSameInstant(byId?.emailVerified, input.emailVerified as Date);
      expect(await method("getUserByEmail")(input.email!)).toMatchObject({ id: created.id });
    });

    ruleTest(ctx, "keeps the id the user is created with (the core picks ids)", async () => {
      const input = sampleUser();
      expect(await method("createUser")(input)).toMatchObject({ id: input.id });
      expect(await method("getUser")(input.id)).toMatchObject({ id: input.id, email: input.email });
    });

    contractTest(ctx, "keeps an unverified email as null", async () => {
      const created = await createdUser({ emailVerified: null });
      expect(created.emailVerified).toBeNull();
      expect((await method("getUser")(created.id))?.emailVerified).toBeNull();
    });

    ruleTest(ctx, "assigns an id to a user created without one", async () => {
      const { id: _omitted, ...withoutId } = sampleUser();
      const created = await method("createUser")(withoutId as AdapterUser);
      expect(typeof created.id).toBe("string");
      expect(created.id.length).toBeGreaterThan(0);
      expect(await method("getUser")(created.id)).toMatchObject({ email: withoutId.email });
    });

    contractTest(ctx, "answers null for an unknown id or email", async () => {
      expect(await method("getUser")(globalThis.crypto.randomUUID())).toBeNull();
      expect(await method("getUserByEmail")(`nobody.${unique()}@example.com`)).toBeNull();
    });

    ruleTest(ctx, "tolerates extra fields on a user", async () => {
      const input = { ...sampleUser(), role: "admin", locale: "fr" } as AdapterUser;
      await expect(method("createUser")(input)).resolves.toMatchObject({ id: input.id, email: input.email });
      expect(await method("getUser")(input.id)).toMatchObject({ id: input.id, email: input.email });
    });

    contractTest(ctx, "updates the given fields, keeps the others, and returns the updated user", async () => {
      const user = await createdUser({ emailVerified: null });
      const verifiedAt = new Date("2025-01-02T03:04:05.000Z");
      const updated = await method("updateUser")({ id: user.id, name: "Renamed", emailVerified: verifiedAt });
      expect(updated).toMatchObject({ id: user.id, name: "Renamed", email: user.email, image: user.image });
      expectSameInstant(updated.emailVerified, verifiedAt);

      const read = await method("getUser")(user.id);
      expect(read).toMatchObject({ name: "Renamed", email: user.email, image: user.image });
      expectSameInstant(read?.emailVerified, verifiedAt);
    });

    contractTest(ctx, "finds a user by a new email after the email changed", async () => {
      const user = await createdUser();
      const email = `changed.${unique()}@example.com`;
      await method("updateUser")({ id: user.id, email });
      expect(await method("getUserByEmail")(email)).toMatchObject({ id: user.id });
    });

    // A stale address would sign its next owner in as this user (an email link finds users by address).
    ruleTest(ctx, "forgets the old email when the email changes or is removed", async () => {
      const user = await createdUser();
      const email = `changed.${unique()}@example.com`;
      await method("updateUser")({ id: user.id, email });
      expect(await method("getUserByEmail")(user.email!)).toBeNull();
      await method("updateUser")({ id: user.id, email: null });
      expect(await method("getUserByEmail")(email)).toBeNull();
      expect(await method("getUser")(user.id)).toMatchObject({ email: null });
    });

    ruleTest(ctx, "returns copies: changing a returned user does not change the stored one", async () => {
      const created = await createdUser();
      const name = created.name;
      const session = await method("createSession")(sampleSession(created.id));
      const returned = [
        created,
        await method("getUser")(created.id),
        await method("getUserByEmail")(created.email!),
        (await method("getSessionAndUser")(session.sessionToken))?.user,
      ];
      for (const user of returned) {
        if (!user) continue;
        user.name = "Mutated";
        (user.emailVerified as Date).setTime(0);
      }
      const read = await method("getUser")(created.id);
      expect(read?.name).toBe(name);
      expect((read?.emailVerified as Date).getTime()).not.toBe(0);
    });

    contractTest(ctx, "keeps any number of users without an email (null, as Auth.js stores them), none of them found by email", async () => {
      const first = await createdUser({ email: null });
      const second = await createdUser({ email: null });
      expect(first.id).not.toBe(second.id);
      expect(await method("getUser")(second.id)).toMatchObject({ id: second.id, email: null });
      expect(await method("getUserByEmail")("")).toBeNull();
      const email = `late.${unique()}@example.com`;
      await method("updateUser")({ id: first.id, email });
      expect(await method("getUserByEmail")(email)).toMatchObject({ id: first.id });
    });

    ruleTest(ctx, "rejects a second user with the same email", async () => {
      const user = await createdUser();
      await expect(attempt(() => method("createUser")(sampleUser({ email: user.email })))).rejects.toThrow();
    });
  });
}
