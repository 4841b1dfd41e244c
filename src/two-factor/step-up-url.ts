/**
 * Where the step-up page is: a module of its own, so the server helpers that send a person there
 * (`requireRecentSecondFactor`, reached from the root entry) do not load the route's code, which brings
 * the challenge, passkeys and the QR library (the cold-start graph test keeps them out).
 */

/** The step-up route's path under the base path. */
export const STEP_UP_PATH = "/step-up";

/** The step-up page's URL for `callbackUrl`, with a refusal's name (never what was typed). */
export function stepUpPageUrl(baseUrl: string, callbackUrl: string, error?: string): string {
  const query = new URLSearchParams({ callbackUrl, ...(error ? { error } : {}) });
  return `${baseUrl}${STEP_UP_PATH}?${query.toString()}`;
}
