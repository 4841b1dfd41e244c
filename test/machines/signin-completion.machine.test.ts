import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signInCompletionMachine } from "../../machines/index.js";
import { AccessDenied } from "../../src/errors.js";
import type { AdapterUser } from "../../src/types.js";
import { propertyOptions } from "../helpers/property.js";
import {
  ada,
  completionIn,
  completionInput,
  detached,
  grace,
  hedy,
  markedVerified,
  newUserFrom,
  sessionCookies,
  type AdapterEffect,
  type Setting,
  type World,
} from "./completion-world.js";
import { expectedCompletion } from "./linking-rules.js";
import { runToEnd } from "./run-actor.js";

/** A first GitHub sign-in on a browser nobody is signed in on, with an adapter. */
const github: Setting = {
  provider: "oauth",
  hasAdapter: true,
  signedIn: false,
  email: "ada.l@example.com",
  allowDangerousEmailAccountLinking: false,
  emailVerified: true,
};
/** A followed email link, as the email machine hands it over: the address is proven. */
const emailLink: Setting = {
  provider: "email",
  hasAdapter: true,
  signedIn: false,
  email: "hedy@example.com",
  allowDangerousEmailAccountLinking: false,
  emailVerified: true,
};
const nobodyKnown: World = { accountOwner: null, emailOwner: null, signIn: { returns: true } };

async function complete(setting: Setting, world: World) {
  const { machine, ran, inputOf } = completionIn(world);
  const ending = await runToEnd(machine, completionInput(setting));
  return { ...ending, ran: ran(), inputOf };
}

describe("sign-in completion machine", () => {
  it("without an adapter, looks nobody up and signs in the provider's user once the signIn callback agrees", async () => {
    const input = completionInput({ ...github, hasAdapter: false, signedIn: true });
    const { value, output, ran } = await complete({ ...github, hasAdapter: false, signedIn: true }, nobodyKnown);
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["signInCallback", "issueSession", "resolveRedirect"]);
    expect(output).toEqual({
      outcome: "signedIn",
      user: input.user,
      isNewUser: false,
      redirectTo: input.callbackUrl,
      cookies: sessionCookies,
      events: [{ type: "signIn", user: input.user, account: input.account, profile: input.profile, isNewUser: false }],
    });
  });

  it("a credentials sign-in with an adapter looks up no account, links and creates nothing", async () => {
    const setting: Setting = { ...github, provider: "credentials", signedIn: true };
    const { value, output, ran, inputOf } = await complete(setting, { ...nobodyKnown, accountOwner: grace, emailOwner: grace });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["signInCallback", "issueSession", "resolveRedirect"]);
    expect(inputOf("signInCallback")).toEqual({
      user: completionInput(setting).user,
      account: completionInput(setting).account,
      credentials: { username: "ada", password: "correct horse" },
    });
    expect(output.events.map((event) => event.type)).toEqual(["signIn"]);
  });

  it("an account linked to someone other than the signed-in user is not linked, and no session is issued", async () => {
    const { value, output, ran } = await complete({ ...github, signedIn: true }, { ...nobodyKnown, accountOwner: grace });
    expect(value).toBe("notLinked");
    expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, events: [] });
    expect(ran).toEqual(["findUserByAccount", "signInCallback"]);
  });

  it("an account already linked to the signed-in user signs them in again, linking nothing", async () => {
    const { value, output, ran } = await complete({ ...github, signedIn: true }, { ...nobodyKnown, accountOwner: ada });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "issueSession", "resolveRedirect"]);
    expect(output).toMatchObject({ outcome: "signedIn", user: ada, isNewUser: false });
  });

  it("a known account signs its owner in: the signIn callback, the session and the event all see the stored user", async () => {
    const { output, inputOf } = await complete(github, { ...nobodyKnown, accountOwner: grace });
    expect(output).toMatchObject({ outcome: "signedIn", user: grace, isNewUser: false });
    expect(inputOf("signInCallback")).toMatchObject({ user: grace });
    expect(inputOf("issueSession")).toMatchObject({ user: grace, isNewUser: false });
    expect(output.events).toEqual([expect.objectContaining({ type: "signIn", user: grace, isNewUser: false })]);
  });

  it("a returning OAuth person's new tokens replace those of their linked account, before the session is issued", async () => {
    const setting = { ...github, updatesAccountTokens: true };
    for (const [signedIn, owner] of [
      [false, grace],
      [true, ada],
    ] as const) {
      const { value, output, ran, inputOf } = await complete({ ...setting, signedIn }, { ...nobodyKnown, accountOwner: owner });
      expect(value).toBe("signedIn");
      expect(ran).toEqual(["findUserByAccount", "signInCallback", "updateAccountTokens", "issueSession", "resolveRedirect"]);
      expect(inputOf("updateAccountTokens")).toEqual({ account: completionInput(setting).account });
      expect(inputOf("updateAccountTokens")).toMatchObject({ account: { access_token: "gho_token" } });
      // Updating tokens links nothing: the only event is the sign-in.
      expect(output.events.map((event) => event.type)).toEqual(["signIn"]);
    }
  });

  it("an OIDC provider's returning person has their tokens replaced too", async () => {
    const { machine, ran, inputOf } = completionIn({ ...nobodyKnown, accountOwner: grace });
    const input = completionInput({ ...github, updatesAccountTokens: true });
    const oidc = { ...input, provider: { ...input.provider, id: "op", type: "oidc" as const }, account: { ...input.account, provider: "op", type: "oidc" as const } };
    const { value } = await runToEnd(machine, oidc);
    expect(value).toBe("signedIn");
    expect(ran()).toEqual(["findUserByAccount", "signInCallback", "updateAccountTokens", "issueSession", "resolveRedirect"]);
    expect(inputOf("updateAccountTokens")).toEqual({ account: oidc.account });
  });

  it("replaces no tokens when the adapter cannot update accounts, for a new or newly linked account, or for an email or credentials sign-in", async () => {
    const updatable = { ...github, updatesAccountTokens: true };
    const cases: Array<[string, Setting, World]> = [
      ["adapter cannot update accounts", github, { ...nobodyKnown, accountOwner: grace }],
      ["a new user", updatable, nobodyKnown],
      ["linked to the signed-in user", { ...updatable, signedIn: true }, nobodyKnown],
      ["linked by email", { ...updatable, allowDangerousEmailAccountLinking: true }, { ...nobodyKnown, emailOwner: grace }],
      ["someone else's account", { ...updatable, signedIn: true }, { ...nobodyKnown, accountOwner: grace }],
      ["refused by the signIn callback", updatable, { ...nobodyKnown, accountOwner: grace, signIn: { returns: false } }],
      ["an email link", { ...emailLink, updatesAccountTokens: true }, { ...nobodyKnown, accountOwner: grace }],
      ["credentials", { ...updatable, provider: "credentials" }, { ...nobodyKnown, accountOwner: grace }],
    ];
    for (const [name, setting, world] of cases) {
      const { ran } = await complete(setting, world);
      expect(ran, name).not.toContain("updateAccountTokens");
    }
  });

  it("an unknown account while signed in is linked to the signed-in user, whoever has its email", async () => {
    const input = completionInput({ ...github, signedIn: true });
    const { value, output, ran, inputOf } = await complete({ ...github, signedIn: true }, { ...nobodyKnown, emailOwner: grace });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(inputOf("linkAccount")).toEqual({ userId: ada.id, account: input.account });
    expect(output).toMatchObject({ outcome: "signedIn", user: ada, isNewUser: false });
    expect(output.events).toEqual([
      { type: "linkAccount", user: ada, account: input.account, profile: input.user },
      { type: "signIn", user: ada, account: input.account, profile: input.profile, isNewUser: false },
    ]);
  });

  it("an unknown account whose email a stored user has links to them only when the provider opted in, their email is verified and the provider says it is verified", async () => {
    for (const allowDangerousEmailAccountLinking of [true, false]) {
      for (const emailOwner of [grace, hedy]) {
        for (const emailVerified of [true, false]) {
          const setting = { ...github, allowDangerousEmailAccountLinking, emailVerified };
          const { value, output, ran, inputOf } = await complete(setting, { ...nobodyKnown, emailOwner });
          const linked = allowDangerousEmailAccountLinking && emailOwner === grace && emailVerified;
          // The same provider proving Hedy's unverified address claims her instead (see below).
          const claimed = allowDangerousEmailAccountLinking && emailOwner === hedy && emailVerified;
          const said = `allow=${allowDangerousEmailAccountLinking} stored=${String(emailOwner.emailVerified)} asserted=${emailVerified}`;
          expect(value, said).toBe(linked || claimed ? "signedIn" : "notLinked");
          expect(inputOf("findUserByEmail"), said).toEqual({ email: "ada.l@example.com" });
          if (claimed) {
            expect(ran, said).toEqual(expect.arrayContaining(["claimUnverifiedUser", "linkAccount"]));
            expect(inputOf("linkAccount")).toMatchObject({ userId: hedy.id });
          } else if (linked) {
            expect(inputOf("linkAccount")).toMatchObject({ userId: grace.id });
            expect(ran, said).not.toContain("markEmailVerified");
            expect(output).toMatchObject({ outcome: "signedIn", user: grace, isNewUser: false });
          } else {
            expect(ran, said).not.toContain("linkAccount");
            expect(ran, said).not.toContain("issueSession");
            expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, events: [] });
          }
        }
      }
    }
  });

  it("an unknown account whose email nobody has creates a new user: createUser, then linkAccount, then signIn with isNewUser", async () => {
    const input = completionInput(github);
    const created = newUserFrom(input.user, true);
    const { value, output, ran, inputOf } = await complete(github, nobodyKnown);
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "createUserWithAccount", "issueSession", "resolveRedirect"]);
    expect(inputOf("createUserWithAccount")).toEqual({ user: input.user, account: input.account, emailVerified: true });
    expect(inputOf("issueSession")).toMatchObject({ user: created, isNewUser: true });
    expect(output).toMatchObject({ outcome: "signedIn", user: created, isNewUser: true });
    expect(output.events).toEqual([
      { type: "createUser", user: created },
      { type: "linkAccount", user: created, account: input.account, profile: input.user },
      { type: "signIn", user: created, account: input.account, profile: input.profile, isNewUser: true },
    ]);
  });

  it("an email link whose address a verified user has signs in as them whatever the provider's flags", async () => {
    for (const allowDangerousEmailAccountLinking of [true, false]) {
      for (const emailVerified of [true, false]) {
        const setting = { ...emailLink, allowDangerousEmailAccountLinking, emailVerified };
        const input = completionInput(setting);
        const { value, output, ran, inputOf } = await complete(setting, { ...nobodyKnown, emailOwner: grace });
        const said = `allow=${allowDangerousEmailAccountLinking} asserted=${emailVerified}`;
        expect(value, said).toBe("signedIn");
        expect(inputOf("findUserByEmail"), said).toEqual({ email: "hedy@example.com" });
        expect(inputOf("linkAccount"), said).toEqual({ userId: grace.id, account: input.account });
        expect(ran, said).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "linkAccount", "issueSession", "resolveRedirect"]);
        expect(inputOf("issueSession"), said).toMatchObject({ user: grace, isNewUser: false });
        expect(output, said).toMatchObject({ outcome: "signedIn", user: grace, isNewUser: false });
        expect(output.events, said).toEqual([
          { type: "linkAccount", user: grace, account: input.account, profile: input.user },
          { type: "signIn", user: grace, account: input.account, isNewUser: false },
        ]);
      }
    }
  });

  it("an email link whose address a user nobody verified has keeps that user and id: detaches what was attached, marks the address verified, links and signs them in", async () => {
    const input = completionInput(emailLink);
    const claimed = markedVerified(hedy.id);
    const { value, output, ran, inputOf } = await complete(emailLink, { ...nobodyKnown, emailOwner: hedy });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "claimUnverifiedUser", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(ran).not.toContain("createUserWithAccount");
    expect(inputOf("claimUnverifiedUser")).toEqual({ userId: hedy.id, providerType: "email" });
    expect(inputOf("linkAccount")).toEqual({ userId: hedy.id, account: input.account });
    expect(inputOf("issueSession")).toMatchObject({ user: claimed, isNewUser: false });
    expect(output).toMatchObject({ outcome: "signedIn", user: { id: hedy.id }, isNewUser: false });
    expect(output.events).toEqual([
      { type: "credentialsDetached", user: claimed, account: input.account, ...detached },
      { type: "linkAccount", user: claimed, account: input.account, profile: input.user },
      { type: "signIn", user: claimed, account: input.account, isNewUser: false },
    ]);
  });

  it("a provider that opted in to email linking and asserts the address verified claims the unverified user the same way, linking its account to them", async () => {
    const setting = { ...github, email: "hedy@example.com", allowDangerousEmailAccountLinking: true, emailVerified: true };
    const input = completionInput(setting);
    const { value, output, ran, inputOf } = await complete(setting, { ...nobodyKnown, emailOwner: hedy });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "claimUnverifiedUser", "linkAccount", "issueSession", "resolveRedirect"]);
    expect(inputOf("claimUnverifiedUser")).toEqual({ userId: hedy.id, providerType: "oauth" });
    expect(inputOf("linkAccount")).toEqual({ userId: hedy.id, account: input.account });
    expect(output.events[0]).toEqual({ type: "credentialsDetached", user: markedVerified(hedy.id), account: input.account, ...detached });
    expect(output).toMatchObject({ outcome: "signedIn", user: { id: hedy.id }, isNewUser: false });
  });

  it("a user nobody verified is left alone by a provider that did not opt in, or does not assert the address verified", async () => {
    for (const flags of [{ allowDangerousEmailAccountLinking: false, emailVerified: true }, { allowDangerousEmailAccountLinking: true, emailVerified: false }]) {
      const { value, ran } = await complete({ ...github, ...flags }, { ...nobodyKnown, emailOwner: hedy });
      expect(value).toBe("notLinked");
      expect(ran).not.toContain("claimUnverifiedUser");
    }
  });

  it("a user who could not be claimed (an adapter without the extension, or down) fails the sign-in before anything is linked or signed in", async () => {
    const error = new Error("claimUnverifiedUser: the database is unreachable");
    const { value, output, ran } = await complete(emailLink, { ...nobodyKnown, emailOwner: hedy, failure: { effect: "claimUnverifiedUser", error } });
    expect(value).toBe("failed");
    expect(output).toEqual({ outcome: "refused", failure: { error }, events: [] });
    expect(ran).not.toContain("linkAccount");
    expect(ran).not.toContain("createUserWithAccount");
    expect(ran).not.toContain("issueSession");
  });

  it("an email link of a known account whose owner never verified the address marks it verified before the session", async () => {
    const { value, output, ran, inputOf } = await complete(emailLink, { ...nobodyKnown, accountOwner: hedy });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "markEmailVerified", "issueSession", "resolveRedirect"]);
    expect(inputOf("signInCallback")).toMatchObject({ user: hedy });
    expect(inputOf("issueSession")).toMatchObject({ user: markedVerified(hedy.id) });
    expect(output).toMatchObject({ outcome: "signedIn", user: markedVerified(hedy.id), isNewUser: false });
  });

  it("an email link of a user whose address is already verified marks nothing", async () => {
    const { value, ran } = await complete(emailLink, { ...nobodyKnown, accountOwner: grace });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "issueSession", "resolveRedirect"]);
  });

  it("an OAuth sign-in of a user who never verified their address marks nothing: only a followed link proves it", async () => {
    const { value, output, ran } = await complete(github, { ...nobodyKnown, accountOwner: hedy });
    expect(value).toBe("signedIn");
    expect(ran).not.toContain("markEmailVerified");
    expect(output).toMatchObject({ user: hedy });
  });

  it("an OAuth sign-in whose provider asserts the stored unverified address verified marks it (an Auth.js user's next sign-in)", async () => {
    const asserted = { ...github, email: hedy.email! };
    const { value, output, ran, inputOf } = await complete(asserted, { ...nobodyKnown, accountOwner: hedy });
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "markEmailVerified", "issueSession", "resolveRedirect"]);
    expect(inputOf("markEmailVerified")).toEqual({ userId: hedy.id });
    expect(output).toMatchObject({ user: markedVerified(hedy.id) });
    // Not when the provider does not vouch for the address.
    const unasserted = await complete({ ...asserted, emailVerified: false }, { ...nobodyKnown, accountOwner: hedy });
    expect(unasserted.value).toBe("signedIn");
    expect(unasserted.ran).not.toContain("markEmailVerified");
  });

  it("a first email link creates the user with the address verified, and marks nothing more", async () => {
    const input = completionInput(emailLink);
    const { value, output, ran, inputOf } = await complete(emailLink, nobodyKnown);
    expect(value).toBe("signedIn");
    expect(ran).toEqual(["findUserByAccount", "signInCallback", "findUserByEmail", "createUserWithAccount", "issueSession", "resolveRedirect"]);
    expect(inputOf("createUserWithAccount")).toEqual({ user: { email: "hedy@example.com" }, account: input.account, emailVerified: true });
    expect(output).toMatchObject({ outcome: "signedIn", user: newUserFrom(input.user, true), isNewUser: true });
  });

  it("an unknown account with no email, or an empty one, creates a new user without asking who has the address", async () => {
    for (const email of [undefined, null, ""]) {
      const { value, output, ran } = await complete({ ...github, email }, { ...nobodyKnown, emailOwner: grace });
      expect(value).toBe("signedIn");
      expect(ran).not.toContain("findUserByEmail");
      expect(output).toMatchObject({ isNewUser: true });
    }
  });

  it("a signIn callback that returns false, or an empty string, is AccessDenied before anything is linked or created", async () => {
    for (const returns of [false, ""]) {
      const { value, output, ran } = await complete(github, { ...nobodyKnown, signIn: { returns } });
      expect(value).toBe("denied");
      expect(output).toEqual({ outcome: "refused", failure: { error: undefined, as: "AccessDenied" }, events: [] });
      expect(ran).toEqual(["findUserByAccount", "signInCallback"]);
    }
  });

  it("an error thrown by the signIn callback is kept and reported as AccessDenied", async () => {
    const veto = new AccessDenied("Accounts under review cannot sign in.");
    const { value, output } = await complete(github, { ...nobodyKnown, signIn: { throws: veto } });
    expect(value).toBe("denied");
    expect(output).toEqual({ outcome: "refused", failure: { error: veto, as: "AccessDenied" }, events: [] });
  });

  it("a signIn callback that returns a URL diverts there, issuing no session", async () => {
    const { value, output, ran } = await complete(github, { ...nobodyKnown, signIn: { returns: "/onboarding" } });
    expect(value).toBe("diverted");
    expect(output).toEqual({ outcome: "diverted", redirectTo: "/onboarding", events: [] });
    expect(ran).not.toContain("issueSession");
  });

  it("an adapter or session effect that throws fails the sign-in with its error and issues no session", async () => {
    const reaching: Array<[AdapterEffect, Setting, World]> = [
      ["findUserByAccount", github, nobodyKnown],
      ["findUserByEmail", github, nobodyKnown],
      ["createUserWithAccount", github, nobodyKnown],
      ["linkAccount", { ...github, signedIn: true }, nobodyKnown],
      ["linkAccount", { ...github, allowDangerousEmailAccountLinking: true }, { ...nobodyKnown, emailOwner: grace }],
      ["markEmailVerified", emailLink, { ...nobodyKnown, accountOwner: hedy }],
      ["claimUnverifiedUser", emailLink, { ...nobodyKnown, emailOwner: hedy }],
      ["linkAccount", emailLink, { ...nobodyKnown, emailOwner: hedy }],
      ["updateAccountTokens", { ...github, updatesAccountTokens: true }, { ...nobodyKnown, accountOwner: grace }],
      ["issueSession", github, nobodyKnown],
    ];
    for (const [effect, setting, world] of reaching) {
      const error = new Error(`${effect}: the database is unreachable`);
      const { value, output } = await complete(setting, { ...world, failure: { effect, error } });
      expect(value, effect).toBe("failed");
      expect(output, effect).toMatchObject({ outcome: "refused", failure: { error } });
      expect("cookies" in output, effect).toBe(false);
      expect(output.events.some((event) => event.type === "signIn"), effect).toBe(false);
    }
  });

  it("an effect left unprovided fails the sign-in, naming the effect", async () => {
    const { value, output } = await runToEnd(signInCompletionMachine, completionInput(github));
    expect(value).toBe("failed");
    if (output.outcome === "refused") expect(String(output.failure.error)).toMatch(/"findUserByAccount" was not provided/);
  });

  it("follows the account-linking rules for any sign-in, adapter and callback answer", async () => {
    const sometimes = <T>(value: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 1 });
    const settings = fc.record({
      provider: fc.constantFrom("oauth" as const, "credentials" as const, "email" as const),
      hasAdapter: fc.boolean(),
      signedIn: fc.boolean(),
      email: fc.constantFrom("ada.l@example.com", "grace@example.com", "hedy@example.com", "", null, undefined),
      allowDangerousEmailAccountLinking: fc.boolean(),
      emailVerified: fc.boolean(),
      updatesAccountTokens: fc.boolean(),
    });
    const worlds = fc.record({
      accountOwner: fc.constantFrom<AdapterUser | null>(null, ada, grace, hedy),
      emailOwner: fc.constantFrom<AdapterUser | null>(null, ada, grace, hedy),
      signIn: fc.oneof(
        { arbitrary: fc.constant({ returns: true }), weight: 4 },
        { arbitrary: fc.constantFrom(false, "", "/onboarding").map((returns) => ({ returns })), weight: 1 },
        { arbitrary: fc.constant({ throws: new AccessDenied("vetoed") }), weight: 1 },
      ),
      failure: sometimes(
        fc
          .constantFrom<AdapterEffect>(
            "findUserByAccount",
            "findUserByEmail",
            "linkAccount",
            "claimUnverifiedUser",
            "createUserWithAccount",
            "markEmailVerified",
            "updateAccountTokens",
            "issueSession",
          )
          .map((effect) => ({ effect, error: new Error(`${effect} failed`) })),
      ),
    });
    await fc.assert(
      fc.asyncProperty(settings, worlds, async (setting, world) => {
        const expected = expectedCompletion(setting, world);
        const { value, output, ran } = await complete(setting, world);
        expect(value).toBe(expected.finalState);
        expect(output).toEqual(expected.output);
        expect(ran).toEqual(expected.calls);
      }),
      propertyOptions(500),
    );
  });
});
