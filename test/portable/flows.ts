/** The flows the portable suite proves on each runtime, in the README table's order, with the column titles. */
export const FLOWS = ["pages", "credentials", "signout", "oidc", "email", "passkey", "rate-limit", "database-session"] as const;

export type Flow = (typeof FLOWS)[number];

export const FLOW_TITLES: Record<Flow, string> = {
  pages: "built-in pages",
  credentials: "credentials + JWT session",
  signout: "sign-out",
  oidc: "OIDC sign-in",
  email: "email link (HTTP API)",
  passkey: "passkey options",
  "rate-limit": "rate limit (memory)",
  "database-session": "database session",
};
