/**
 * The ledger integrations keep of one response's cookies (src/server/response-cookies.ts): later
 * steps of the request read it as the browser will send it next, and a session read never
 * overwrites what a sign-in, sign-out or update wrote in the same response.
 */
import { describe, expect, it } from "vitest";
import type { SetCookie } from "../../../src/cookies.js";
import { ResponseCookies } from "../../../src/server/response-cookies.js";

const incoming = () => new Request("http://localhost:3000/page", { method: "POST", headers: { cookie: "session=old; theme=dark", "content-type": "text/plain" }, body: "x" });
const set = (name: string, value: string): SetCookie => ({ name, value, options: { path: "/" } });
const deleted = (name: string): SetCookie => ({ name, value: "", options: { path: "/", maxAge: 0 } });

describe("ResponseCookies", () => {
  it("hands back the incoming request itself while nothing was written", () => {
    const request = incoming();
    const ledger = new ResponseCookies(request);
    expect(ledger.admit([], "operation")).toEqual([]);
    expect(ledger.asSent(request)).toBe(request);
  });

  it("shows later steps the request without a deleted cookie and with a set one, keeping the others", () => {
    const request = incoming();
    const ledger = new ResponseCookies(request);
    ledger.admit([deleted("session"), set("csrf", "a b")], "operation");
    const next = ledger.asSent(request);
    expect(next.url).toBe(request.url);
    expect(next.method).toBe("GET");
    expect(next.headers.get("content-type")).toBeNull();
    expect(next.headers.get("cookie")).toBe("theme=dark; csrf=a%20b");
  });

  it("lets a read refresh a cookie nobody decided on, and writes nothing of a read that would overwrite an operation's cookie", () => {
    const ledger = new ResponseCookies(incoming());
    expect(ledger.admit([set("session", "reissued")], "read")).toHaveLength(1);
    ledger.admit([deleted("session")], "operation");
    expect(ledger.admit([set("session", "old-again"), set("other", "x")], "read")).toEqual([]);
    expect(ledger.asSent(incoming()).headers.get("cookie")).toBe("theme=dark");
  });

  it("lets a later operation overwrite an earlier one (a sign-out after a sign-in)", () => {
    const ledger = new ResponseCookies(incoming());
    ledger.admit([set("session", "new-user")], "operation");
    expect(ledger.admit([deleted("session")], "operation")).toHaveLength(1);
    expect(ledger.asSent(incoming()).headers.get("cookie")).toBe("theme=dark");
  });
});
