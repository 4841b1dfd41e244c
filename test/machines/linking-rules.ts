/**
 * An oracle for the sign-in completion, written from its rules rather than read off the machine: given
 * what the sign-in brings (a setting) and what the outside world answers, it says where the completion
 * ends, with which output, and which effects it runs.
 *
 * The rules: with an adapter and a provider that has real accounts, the account is looked up first and
 * the signIn callback sees the user it belongs to. The callback may refuse (false, "" or a throw, which
 * is kept as AccessDenied) or divert (a URL). Then (a) an account linked to someone other than the person
 * signed in on this browser is not linked; (b) an unknown account while signed in is linked to the
 * signed-in user; (c) an unknown account whose email an existing user has is linked to them when the
 * sign-in is by email link (following it proved the address), else only when the provider opted in to
 * dangerous email linking, that user's email is verified and the provider asserts the email verified,
 * and is otherwise not linked; (d) anything else creates a new user with the account. (e) Without an
 * adapter, or for credentials, nobody is looked up. (f) An email sign-in that signs in a stored user
 * (a known account, or one just linked) whose stored address is the proved one and nobody had verified marks it verified; a user
 * it creates is created verified or not as the sign-in says, and is not marked. (g) A returning person's
 * OAuth/OIDC account (known, and theirs) is given this sign-in's tokens when the adapter can update
 * accounts; a new or newly linked account is written with them already. (h) No pre-hijacked accounts:
 * when the sign-in proves the address of a user nobody verified (an email link; or the provider opted
 * in to email linking and asserts the address verified), that user is the prover's: the same user (never
 * deleted, never replaced by a new one), claimed with everything attached before the proof detached and
 * the address verified, then the proving account linked to them; linking onto them as they are would
 * give a squatter's credentials a way in, refusing would keep the owner out. A session is issued last; an adapter or session
 * effect that throws fails the sign-in with its error. (i) When a second factor is configured and due,
 * the stored user this sign-in is for (the account's, the signed-in one a new account links to, the
 * one who has the address, or the one `authorize` returned) is asked about before anything is written;
 * one with an active factor ends the completion in a challenge, with the pending cookie and nothing
 * written or announced. A new user has none. The resumed run after the challenge skips the signIn
 * callback (it allowed the sign-in the first time) and the question. (j) Under a `required` policy the
 * gate may instead send the user to enroll (the same pending cookie, nothing written); a user the
 * sign-in would create is asked about too, before creation. (k) The resumed run after such an
 * enrollment stores the confirmed app for the user last, right before the session.
 */
import type { CompletionEvent, SignInCompletionOutput } from "../../machines/index.js";
import type { AdapterUser, User } from "../../src/types.js";
import {
  ada,
  completionInput,
  detached,
  markedVerified,
  challengeUrl,
  newUserFrom,
  pendingCookies,
  personWithId,
  sessionCookies,
  welcomeUrl,
  type AdapterEffect,
  type Setting,
  type World,
} from "./completion-world.js";

export interface ExpectedCompletion {
  finalState: "signedIn" | "diverted" | "denied" | "notLinked" | "failed" | "awaitingSecondFactor" | "awaitingEnrollment";
  output: SignInCompletionOutput;
  /** The effects run, in order. */
  calls: string[];
}

/** Where the completion ends for this setting and world, and with what. */
export function expectedCompletion(setting: Setting, world: World): ExpectedCompletion {
  const input = completionInput(setting);
  const calls: string[] = [];
  const events: CompletionEvent[] = [];
  const fails = (effect: AdapterEffect): boolean => {
    calls.push(effect);
    return world.failure?.effect === effect;
  };
  const failed = (): ExpectedCompletion => ({
    finalState: "failed",
    output: { outcome: "refused", failure: { error: world.failure!.error }, events },
    calls,
  });
  const notLinked = (): ExpectedCompletion => ({
    finalState: "notLinked",
    output: { outcome: "refused", failure: { error: undefined, as: "OAuthAccountNotLinked" }, events },
    calls,
  });

  // (i) The gate: undefined to go on, or where the completion ends instead. (j) A user the sign-in
  // would create is asked about only under a `required` policy (`newUser`).
  const gate = (userId: string, newUser = false): ExpectedCompletion | undefined => {
    if (setting.twoFactor !== "pending" && setting.twoFactor !== "required") return undefined;
    if (newUser && setting.twoFactor !== "required") return undefined;
    if (fails("findSecondFactor")) return failed();
    if (world.secondFactor !== "challenge" && world.secondFactor !== "enroll") return undefined;
    if (fails("holdPendingSignIn")) return failed();
    return {
      finalState: world.secondFactor === "challenge" ? "awaitingSecondFactor" : "awaitingEnrollment",
      output: { outcome: "challenge", userId, redirectTo: challengeUrl, cookies: pendingCookies, events: [] },
      calls,
    };
  };

  // (e) Credentials accounts are synthetic, and without an adapter nothing is stored.
  const accountsStored = setting.hasAdapter && setting.provider !== "credentials";
  let owner: AdapterUser | null = null;
  if (accountsStored) {
    if (fails("findUserByAccount")) return failed();
    owner = world.accountOwner;
  }

  const resumed = setting.twoFactor === "resumed" || setting.twoFactor === "enrolled";
  if (!resumed) calls.push("signInCallback");
  const verdict = resumed ? { returns: true } : world.signIn;
  if ("throws" in verdict) {
    return { finalState: "denied", output: { outcome: "refused", failure: { error: verdict.throws, as: "AccessDenied" }, events }, calls };
  }
  if (typeof verdict.returns === "string" && verdict.returns !== "") {
    return { finalState: "diverted", output: { outcome: "diverted", redirectTo: verdict.returns, events }, calls };
  }
  if (verdict.returns !== true) {
    return { finalState: "denied", output: { outcome: "refused", failure: { error: undefined, as: "AccessDenied" }, events }, calls };
  }

  let user: User = owner ?? input.user;
  let isNewUser = false;
  const link = (to: AdapterUser) => {
    user = to;
    events.push({ type: "linkAccount", user: to, account: input.account, profile: input.user });
  };
  const create = () => {
    const created = newUserFrom(input.user, input.emailVerified);
    user = created;
    isNewUser = true;
    events.push({ type: "createUser", user: created });
    events.push({ type: "linkAccount", user: created, account: input.account, profile: input.user });
  };
  if (accountsStored) {
    const signedInAs = setting.signedIn ? ada.id : undefined;
    let signsInStored: AdapterUser | undefined;
    if (owner) {
      // (a) Someone else's account is not taken over by whoever is signed in here.
      if (signedInAs !== undefined && owner.id !== signedInAs) return notLinked();
      const gated = gate(owner.id);
      if (gated) return gated;
      signsInStored = owner;
      // (g) The stored tokens are replaced by this sign-in's.
      if (setting.updatesAccountTokens && setting.provider === "oauth" && fails("updateAccountTokens")) return failed();
    } else if (signedInAs !== undefined) {
      // (b) A new account for the person signed in here.
      const gated = gate(signedInAs);
      if (gated) return gated;
      if (fails("linkAccount")) return failed();
      signsInStored = personWithId(signedInAs);
      link(signsInStored);
    } else if (typeof setting.email === "string" && setting.email !== "") {
      if (fails("findUserByEmail")) return failed();
      const emailOwner = world.emailOwner;
      // (h) The address is proven here: a followed link, or an opted-in provider that asserts it verified.
      const proves = setting.provider === "email" || (setting.allowDangerousEmailAccountLinking && setting.emailVerified);
      if (emailOwner && emailOwner.emailVerified === null && proves) {
        const gated = gate(emailOwner.id);
        if (gated) return gated;
        if (fails("claimUnverifiedUser")) return failed();
        const claimed = markedVerified(emailOwner.id);
        events.push({ type: "credentialsDetached", user: claimed, account: input.account, ...detached });
        if (fails("linkAccount")) return failed();
        signsInStored = claimed;
        link(claimed);
      } else if (emailOwner) {
        // (c) A followed link vouches for the address by itself; otherwise all three must.
        const vouched =
          setting.provider === "email" ||
          (setting.allowDangerousEmailAccountLinking && emailOwner.emailVerified !== null && setting.emailVerified);
        if (!vouched) return notLinked();
        const gated = gate(emailOwner.id);
        if (gated) return gated;
        if (fails("linkAccount")) return failed();
        signsInStored = personWithId(emailOwner.id);
        link(signsInStored);
      } else {
        const gated = gate("", true);
        if (gated) return gated;
        if (fails("createUserWithAccount")) return failed();
        create();
      }
    } else {
      // (d) Nobody to link to.
      const gated = gate("", true);
      if (gated) return gated;
      if (fails("createUserWithAccount")) return failed();
      create();
    }
    // (f) The link (or a provider asserting the address verified) proved the address of the stored
    // user it signs in, if nobody had before — and only when that user's address is the one proved
    // (a user whose stored address changed is not marked).
    const proves = setting.provider === "email" || (setting.provider === "oauth" && setting.emailVerified === true);
    if (proves && signsInStored?.emailVerified === null && signsInStored.email === input.user.email) {
      if (fails("markEmailVerified")) return failed();
      user = markedVerified(signsInStored.id);
    }
  }

  if (!accountsStored) {
    const gated = gate(String(input.user.id ?? ""));
    if (gated) return gated;
  }
  // (k) An app confirmed on the way in is stored once everything else is written, before the session.
  if (setting.twoFactor === "enrolled" && fails("storeEnrolledFactor")) return failed();
  if (fails("issueSession")) return failed();
  // The session is issued, then the requested URL judged: a first sign-in is welcomed on its own page.
  if (fails("resolveRedirect")) return failed();
  const redirectTo = isNewUser ? welcomeUrl : input.callbackUrl;
  events.push({
    type: "signIn",
    user,
    account: input.account,
    ...(input.profile ? { profile: input.profile } : {}),
    isNewUser,
  });
  return { finalState: "signedIn", output: { outcome: "signedIn", user, isNewUser, redirectTo, cookies: sessionCookies, events }, calls };
}
