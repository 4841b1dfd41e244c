/**
 * `serializeCookie` writes a value percent-encoded exactly as `encodeURIComponent` does (what Auth.js
 * writes, and what `parseCookies` reads back), whether or not the value has anything to encode: the
 * fast path for tokens must not change a single byte.
 */
import { describe, expect, it } from "vitest";
import { parseCookies, serializeCookie } from "../../../src/cookies.js";

const VALUES = [
  "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..abc_DEF-123.xyz",
  "0f3a-9b.c~d*e'f(g)h!i",
  "http://localhost:3000/dashboard?tab=1&x=a b",
  "ünïcødé ✓",
  "a;b,c=d\"e\\f%g",
  "",
];

describe("serializeCookie's value", () => {
  it.each(VALUES)("is encodeURIComponent's encoding of %j and reads back", (value) => {
    const header = serializeCookie({ name: "appauth.test", value, options: { path: "/" } });
    expect(header.split(";")[0]).toBe(`appauth.test=${encodeURIComponent(value)}`);
    expect(parseCookies(header.split(";")[0]).get("appauth.test")).toBe(value);
  });
});
