import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { encode, getToken } from "../../../src/jwt/index.js";
import type { JWT } from "../../../src/types.js";

const secret = "get-token-test-secret";
const plain = "appauth.session-token";
const secure = "__Secure-appauth.session-token";

const ENV_NAMES = [
  "APPAUTH_SECRET",
  "AUTH_SECRET",
  ...[1, 2, 3].flatMap((i) => [`APPAUTH_SECRET_${i}`, `AUTH_SECRET_${i}`]),
  "APPAUTH_URL",
  "AUTH_URL",
];

beforeEach(() => {
  for (const name of ENV_NAMES) vi.stubEnv(name, undefined);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function sessionFor(sub: string, salt = plain): Promise<string> {
  return encode({ token: { sub }, secret, salt });
}

function request(headers: Record<string, string>, url = "http://app.example/api"): Request {
  return new Request(url, { headers });
}

describe("getToken", () => {
  it("reads the claims from the session cookie", async () => {
    const token = await sessionFor("cookie-user");
    const req = request({ cookie: `other=1; ${plain}=${token}; theme=dark` });
    expect(await getToken({ req, secret })).toMatchObject({ sub: "cookie-user" });
  });

  it("joins a session cookie split into chunks", async () => {
    const token = await encode({ token: { sub: "big", blob: "z".repeat(6000) }, secret, salt: plain });
    const half = Math.ceil(token.length / 2);
    const req = request({ cookie: `${plain}.1=${token.slice(half)}; ${plain}.0=${token.slice(0, half)}` });
    expect(await getToken({ req, secret })).toMatchObject({ sub: "big" });
  });

  it("reads the __Secure- cookie of an https request, salted with that name", async () => {
    const token = await sessionFor("secure-user", secure);
    const req = request({ cookie: `${secure}=${token}` }, "https://app.example/api");
    expect(await getToken({ req, secret })).toMatchObject({ sub: "secure-user" });
  });

  it("reads the __Secure- cookie when secureCookie is set, even on plain http", async () => {
    const token = await sessionFor("forced", secure);
    const req = request({ cookie: `${secure}=${token}` });
    expect(await getToken({ req, secret, secureCookie: true })).toMatchObject({ sub: "forced" });
    expect(await getToken({ req, secret })).toBeNull();
  });

  it("reads the __Secure- cookie when the configured URL is https", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example");
    const token = await sessionFor("env-secure", secure);
    const req = { headers: { cookie: `${secure}=${token}` } };
    expect(await getToken({ req, secret })).toMatchObject({ sub: "env-secure" });
  });

  it("ignores a cookie without the prefix when secure cookies are expected", async () => {
    const token = await sessionFor("plain-user");
    const req = request({ cookie: `${plain}=${token}` }, "https://app.example/");
    expect(await getToken({ req, secret })).toBeNull();
  });

  it("does not open a cookie sealed for the other cookie name", async () => {
    const token = await sessionFor("wrong-salt", plain);
    const req = request({ cookie: `${secure}=${token}` }, "https://app.example/");
    expect(await getToken({ req, secret })).toBeNull();
  });

  it("falls back to an Authorization: Bearer header when there is no cookie", async () => {
    const token = await sessionFor("bearer-user");
    expect(await getToken({ req: request({ authorization: `Bearer ${token}` }), secret })).toMatchObject({ sub: "bearer-user" });
    expect(await getToken({ req: request({ authorization: `bearer   ${token}` }), secret })).toMatchObject({ sub: "bearer-user" });
    expect(await getToken({ req: request({ authorization: `Basic ${token}` }), secret })).toBeNull();
  });

  it("prefers the cookie to the Authorization header", async () => {
    const fromCookie = await sessionFor("cookie");
    const fromHeader = await sessionFor("header");
    const req = request({ cookie: `${plain}=${fromCookie}`, authorization: `Bearer ${fromHeader}` });
    expect(await getToken({ req, secret })).toMatchObject({ sub: "cookie" });
  });

  it("reads plain-object headers with the cookie given as a list", async () => {
    const token = await sessionFor("node-user");
    const req = { headers: { Cookie: ["theme=dark", `${plain}=${token}`], host: "app.example" } };
    expect(await getToken({ req, secret })).toMatchObject({ sub: "node-user" });
  });

  it("reads plain-object headers with chunks spread over cookie lines and a bearer fallback", async () => {
    const token = await sessionFor("spread");
    const req = { headers: { cookie: [`${plain}.0=${token.slice(0, 40)}`, `${plain}.1=${token.slice(40)}`] } };
    expect(await getToken({ req, secret })).toMatchObject({ sub: "spread" });
    const bearer = { headers: { authorization: `Bearer ${token}`, cookie: undefined } };
    expect(await getToken({ req: bearer, secret })).toMatchObject({ sub: "spread" });
  });

  it("uses a custom cookie name, and salts with it unless told otherwise", async () => {
    const token = await sessionFor("custom", "my.session");
    const req = request({ cookie: `my.session=${token}` });
    expect(await getToken({ req, secret, cookieName: "my.session" })).toMatchObject({ sub: "custom" });
    const salted = await sessionFor("salted", "explicit-salt");
    const req2 = request({ cookie: `my.session=${salted}` });
    expect(await getToken({ req: req2, secret, cookieName: "my.session", salt: "explicit-salt" })).toMatchObject({ sub: "salted" });
  });

  it("opens a cookie sealed with an older secret of the list", async () => {
    const token = await sessionFor("rotated");
    const req = request({ cookie: `${plain}=${token}` });
    expect(await getToken({ req, secret: ["newer-secret", secret] })).toMatchObject({ sub: "rotated" });
  });

  it("returns the token string itself in raw mode", async () => {
    const token = await sessionFor("raw-user");
    const req = request({ cookie: `${plain}=${token}` });
    const raw: string | null = await getToken({ req, secret, raw: true });
    expect(raw).toBe(token);
    expect(await getToken({ req: request({}), raw: true })).toBeNull();
  });

  it("types the result as claims, or as a string in raw mode", () => {
    const req = request({});
    expectTypeOf(getToken({ req, secret })).resolves.toEqualTypeOf<JWT | null>();
    expectTypeOf(getToken({ req, secret, raw: false })).resolves.toEqualTypeOf<JWT | null>();
    expectTypeOf(getToken({ req, secret, raw: true })).resolves.toEqualTypeOf<string | null>();
    const maybe = Math.random() > 2;
    expectTypeOf(getToken({ req, secret, raw: maybe })).resolves.toEqualTypeOf<JWT | string | null>();
  });

  it("needs no secret in raw mode, since it decodes nothing", async () => {
    const req = request({ cookie: `${plain}=whatever-is-there` });
    expect(await getToken({ req, raw: true })).toBe("whatever-is-there");
  });

  it("returns null when there is no token", async () => {
    expect(await getToken({ req: request({}), secret })).toBeNull();
    expect(await getToken({ req: { headers: {} }, secret })).toBeNull();
    expect(await getToken({ req: request({ cookie: "unrelated=1" }), secret })).toBeNull();
  });

  it.each([
    ["garbage", `${plain}=not-a-token`],
    ["an empty value", `${plain}=`],
    ["a broken percent-encoding", `${plain}=%E0%A4%A`],
    ["a token of another secret", null],
  ])("returns null for a session cookie holding %s", async (_label, cookie) => {
    const value = cookie ?? `${plain}=${await encode({ token: { sub: "x" }, secret: "another-secret", salt: plain })}`;
    expect(await getToken({ req: request({ cookie: value }), secret })).toBeNull();
  });

  it("returns null for requests whose headers cannot be read", async () => {
    const odd = [
      { headers: null },
      { headers: "cookie" },
      { headers: { cookie: 42 } },
      { headers: { cookie: [1, 2] } },
      {},
    ] as unknown as Array<{ headers: Record<string, string> }>;
    for (const req of odd) expect(await getToken({ req, secret })).toBeNull();
  });

  it("returns null when a custom decoder throws, and passes it token, secret and salt", async () => {
    const token = await sessionFor("custom-decoder");
    const req = request({ cookie: `${plain}=${token}` });
    const seen: unknown[] = [];
    const decode = (params: unknown): JWT => {
      seen.push(params);
      throw new Error("decoder exploded");
    };
    expect(await getToken({ req, secret, decode })).toBeNull();
    expect(seen).toEqual([{ token, secret: [secret], salt: plain }]);
    expect(await getToken({ req, secret, decode: () => ({ sub: "mine" }) })).toEqual({ sub: "mine" });
  });

  it("takes the secrets from the environment when none is given", async () => {
    vi.stubEnv("AUTH_SECRET", "env-new");
    vi.stubEnv("AUTH_SECRET_1", secret);
    const token = await sessionFor("env-user");
    expect(await getToken({ req: request({ cookie: `${plain}=${token}` }) })).toMatchObject({ sub: "env-user" });
  });

  it("throws a TypeError naming secret when there is none anywhere", async () => {
    const req = request({ cookie: `${plain}=x` });
    await expect(getToken({ req })).rejects.toThrow(TypeError);
    await expect(getToken({ req })).rejects.toThrow(/secret/);
    await expect(getToken({ req: request({}) })).rejects.toThrow(/secret/);
    await expect(getToken({ req, secret: "" })).rejects.toThrow(/secret/);
  });
});
