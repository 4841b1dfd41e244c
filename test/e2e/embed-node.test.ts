/**
 * examples/embed-node over a real socket: a plain node:http server that runs the credentials flow from
 * `appauth/machines` with its own effects and no `Auth()`. A browser's round trip: the form, a wrong
 * password, the right one, the session it gets, and the refusals an attacker would try.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedServer, type EmbedServer } from "../../examples/embed-node/server.js";

const PASSWORD = "correct horse battery staple";

describe("embedding the credentials flow in a plain node:http server", () => {
  let embed: EmbedServer;
  let origin: string;

  beforeAll(async () => {
    embed = createEmbedServer({
      users: {
        ada: { name: "Ada Lovelace", password: PASSWORD },
        mallory: { name: "Mallory", password: PASSWORD, suspended: true },
        grace: { name: "Grace Hopper", password: PASSWORD },
      },
    });
    await new Promise<void>((resolve) => embed.server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(embed.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => embed.server.close(() => resolve()));
  });

  function login(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${origin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, ...headers },
      body: new URLSearchParams(form),
    });
  }

  it("shows the sign-in form to a visitor", async () => {
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<form method="post" action="/login">');
  });

  it("signs Ada in with her password and knows her on the next request", async () => {
    const response = await login({ username: "ada", password: PASSWORD, callbackUrl: "/welcome" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/welcome");
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("sid="))!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax$/);
    const sid = cookie.split(";")[0]!;
    expect(embed.sessions.get(sid.slice("sid=".length))).toBe("ada");

    const home = await fetch(`${origin}/`, { headers: { cookie: sid } });
    expect(await home.text()).toContain("Signed in as <b>Ada Lovelace</b>");
  });

  it("refuses a wrong password, an unknown name and a suspended account without a session", async () => {
    const before = embed.sessions.size;
    for (const form of [
      { username: "ada", password: "wrong" },
      { username: "nobody", password: PASSWORD },
      { username: "mallory", password: PASSWORD },
    ]) {
      const response = await login(form);
      expect(response.status).toBe(401);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(embed.sessions.size).toBe(before);
  });

  it("sends a sign-in asking for another site's URL home, and refuses a cross-site form", async () => {
    for (const callbackUrl of ["https://evil.example/", "//evil.example/", "/\\evil.example"]) {
      const response = await login({ username: "ada", password: PASSWORD, callbackUrl });
      expect(response.headers.get("location")).toBe("/");
    }
    const crossSite = await login({ username: "ada", password: PASSWORD }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
  });

  it("refuses the 6th wrong password for a name with 429 and checks no more passwords, even the right one", async () => {
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login({ username: "grace", password: "wrong" })).status).toBe(401);
    const sixth = await login({ username: "grace", password: PASSWORD });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.getSetCookie()).toEqual([]);
  });
});
