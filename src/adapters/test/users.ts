/** Users: create, read by id and email, update; Dates and extra fields. */
import { describe, expect, it } from "vitest";
import type { AdapterUser } from "../../types.js";
import { attempt, expectSameInstant, type SuiteContext } from "./context.js";
import { sampleSession, sampleUser, unique } from "./fixtures.js";

export function describeUsers(ctx: SuiteContext): void {
  const { method, createdUser } = ctx;

  describe("users", () => {
    it("creates a user and reads it back by id and by email, Dates as Dates", async () => {
      const input = sampleUser();
      const created = await method("createUser")(input);
      expect(created).toMatchObject({ id: input.id, email: input.email, name: input.name, image: input.image });
      expectSameInstant(created.emailVerified, input.emailVerified as Date);

      const byId = await method("getUser")(input.id);
      expect(byId).toMatchObject({ id: input.id, email: input.email, name: input.name, image: input.image });
      expectSameInstant(byId?.emailVerified, input.emailVerified as Date);
      expect(await method("getUserByEmail")(input.email)).toMatchObject({ id: input.id });
    });

    it("keeps an unverified email as null", async () => {
      const created = await createdUser({ emailVerified: null });
      expect(created.emailVerified).toBeNull();
      expect((await method("getUser")(created.id))?.emailVerified).toBeNull();
    });

    it("assigns an id to a user created without one", async () => {
      const { id: _omitted, ...withoutId } = sampleUser();
      const created = await method("createUser")(withoutId as AdapterUser);
      expect(typeof created.id).toBe("string");
      expect(created.id.length).toBeGreaterThan(0);
      expect(await method("getUser")(created.id)).toMatchObject({ email: withoutId.email });
    });

    it("answers null for an unknown id or email", async () => {
      expect(await method("getUser")(globalThis.crypto.randomUUID())).toBeNull();
      expect(await method("getUserByEmail")(`nobody.${unique()}@example.com`)).toBeNull();
    });

    it("tolerates extra fields on a user", async () => {
      const input = { ...sampleUser(), role: "admin", locale: "fr" } as AdapterUser;
      await expect(method("createUser")(input)).resolves.toMatchObject({ id: input.id, email: input.email });
      expect(await method("getUser")(input.id)).toMatchObject({ id: input.id, email: input.email });
    });

    it("updates the given fields, keeps the others, and returns the updated user", async () => {
      const user = await createdUser({ emailVerified: null });
      const verifiedAt = new Date("2025-01-02T03:04:05.000Z");
      const updated = await method("updateUser")({ id: user.id, name: "Renamed", emailVerified: verifiedAt });
      expect(updated).toMatchObject({ id: user.id, name: "Renamed", email: user.email, image: user.image });
      expectSameInstant(updated.emailVerified, verifiedAt);

      const read = await method("getUser")(user.id);
      expect(read).toMatchObject({ name: "Renamed", email: user.email, image: user.image });
      expectSameInstant(read?.emailVerified, verifiedAt);
    });

    it("finds a user by a new email after the email changed", async () => {
      const user = await createdUser();
      const email = `changed.${unique()}@example.com`;
      await method("updateUser")({ id: user.id, email });
      expect(await method("getUserByEmail")(email)).toMatchObject({ id: user.id });
      expect(await method("getUserByEmail")(user.email)).toBeNull();
    });

    it("returns copies: changing a returned user does not change the stored one", async () => {
      const created = await createdUser();
      const name = created.name;
      const session = await method("createSession")(sampleSession(created.id));
      const returned = [
        created,
        await method("getUser")(created.id),
        await method("getUserByEmail")(created.email),
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

    it("keeps any number of users without an email, none of them found by email", async () => {
      const first = await createdUser({ email: "" });
      const second = await createdUser({ email: "" });
      expect(first.id).not.toBe(second.id);
      expect(await method("getUser")(second.id)).toMatchObject({ id: second.id, email: "" });
      expect(await method("getUserByEmail")("")).toBeNull();
      const email = `late.${unique()}@example.com`;
      await method("updateUser")({ id: first.id, email });
      expect(await method("getUserByEmail")(email)).toMatchObject({ id: first.id });
      await method("updateUser")({ id: first.id, email: "" });
      expect(await method("getUserByEmail")(email)).toBeNull();
      expect(await method("getUser")(first.id)).toMatchObject({ email: "" });
    });

    it("rejects a second user with the same email", async () => {
      const user = await createdUser();
      await expect(attempt(() => method("createUser")(sampleUser({ email: user.email })))).rejects.toThrow();
    });
  });
}
