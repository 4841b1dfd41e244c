/**
 * Who can sign in at the demo OP: three built-in people, and anyone who types an email address.
 * A typed address becomes an account whose `sub` is derived from the address, remembered in the OP's
 * store so its tokens still resolve after a restart. No passwords: nothing here is real.
 */
import { createHash } from "node:crypto";
import type { FileStore } from "./file-store.js";

export interface DemoAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  given_name?: string;
  family_name?: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { sub: "demo-ada", email: "ada@example.test", email_verified: true, name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace" },
  { sub: "demo-grace", email: "grace@example.test", email_verified: true, name: "Grace Hopper", given_name: "Grace", family_name: "Hopper" },
  { sub: "demo-katherine", email: "katherine@example.test", email_verified: true, name: "Katherine Johnson", given_name: "Katherine", family_name: "Johnson" },
];

const MODEL = "DemoAccount";
/** Typed-in accounts are forgotten after 30 days unused… or when demo/.data is deleted. */
const KEEP_SECONDS = 30 * 24 * 60 * 60;

/** A plain `local@domain.tld`, no spaces or brackets: enough for a pretend provider. */
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+\.[^\s@<>()[\]",;:\\]+$/;

export function normaliseEmail(input: string): string | undefined {
  const email = input.normalize("NFKC").trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : undefined;
}

export class DemoAccounts {
  constructor(private readonly store: FileStore) {}

  find(sub: string): DemoAccount | undefined {
    return DEMO_ACCOUNTS.find((account) => account.sub === sub) ?? (this.store.get(MODEL, sub) as DemoAccount | undefined);
  }

  /** The account for a typed-in address (one of the built-in people when it is theirs). */
  forEmail(email: string, verified: boolean): DemoAccount {
    const builtIn = DEMO_ACCOUNTS.find((account) => account.email === email);
    if (builtIn) return builtIn;
    const sub = `demo-email-${createHash("sha256").update(email).digest("hex").slice(0, 20)}`;
    const account: DemoAccount = { sub, email, email_verified: verified, name: email.slice(0, email.indexOf("@")) };
    this.store.set(MODEL, sub, { ...account }, KEEP_SECONDS);
    return account;
  }
}
