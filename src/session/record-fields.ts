/**
 * What is recorded about a session when it is issued, for the person's list of their sessions
 * (registry.ts): when, how they signed in, a coarse device and the client address. Kept apart from
 * the registry so that issuing a database session needs none of it.
 */
import type { Runtime } from "../config/runtime.js";
import type { ExtendedAdapter } from "../adapters/extensions.js";
import type { RequestContext } from "../request-context.js";
import type { Account, AdapterSession } from "../types.js";
import { describeUserAgent } from "./user-agent.js";

export type RecordFields = Pick<AdapterSession, "createdAt" | "lastSeenAt" | "signInMethod" | "device" | "clientAddress">;

/** The longest device description and address kept: they come from headers the client writes. */
const MAX_FIELD = 100;

const clip = (value: string | null | undefined): string | null => (value ? value.slice(0, MAX_FIELD) : null);

/** What is recorded about a session issued in answer to `ctx`, signed in with `account`. */
export function recordFields(rt: Runtime, ctx: RequestContext, account?: Account | null): RecordFields {
  const now = new Date();
  return {
    createdAt: now,
    lastSeenAt: now,
    signInMethod: account?.provider ?? null,
    device: clip(describeUserAgent(ctx.request.headers.get("user-agent"))),
    clientAddress: clip(rt.rateLimit?.address(ctx.request)),
  };
}

/** An adapter that keeps what a session list needs (appauth's extensions `listSessions` and `deleteSessions`). */
export type ListingAdapter = ExtendedAdapter & Required<Pick<ExtendedAdapter, "listSessions" | "deleteSessions">>;

/**
 * Whether the adapter keeps session records for a list. Only such an adapter is handed the fields:
 * one that keeps to the Auth.js contract (a published @auth/* adapter) would store or choke on them.
 */
export function listsSessions(adapter: unknown): adapter is ListingAdapter {
  const a = adapter as ExtendedAdapter | undefined;
  return typeof a?.listSessions === "function" && typeof a.deleteSessions === "function";
}
