/**
 * The second factor as the flows' model tests see it: the completion they invoke may end in a
 * challenge (the person has a factor), which each flow passes on as `challenged` with the pending
 * cookie. One outcome for the four flows that invoke the completion (credentials, email, OAuth,
 * passkeys), so they model the same challenge.
 */
import type { SignInCompletionOutput } from "../../machines/index.js";
import { ada, challengeUrl, pendingCookies } from "./completion-world.js";
import { returns, type Outcome } from "./effect-paths.js";

/** The completion's outcome when a second factor is due: Ada is challenged, nothing written, no event. */
export const challengesForSecondFactor: Outcome = returns(
  "challenges (a second factor is due)",
  (): SignInCompletionOutput => ({ outcome: "challenge", userId: ada.id, redirectTo: challengeUrl, cookies: pendingCookies, events: [] }),
);
