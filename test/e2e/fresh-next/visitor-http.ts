/**
 * A visitor of a fresh app over plain HTTP, without a browser, so each request can come from its
 * own loopback address: the library's credentials route with its CSRF pair, and the forms of a
 * server-rendered page posted as a browser posts them.
 */
import { rawRequest, type RawAnswer } from "../../helpers/raw-http.js";

/** A visitor: the port they connect to, the loopback address they connect from, and the site they mean (the app's public URL). */
export interface Visit {
  port: number;
  from: string;
  site: string;
}

/**
 * One request from `visit` for its site: the Host and Origin a browser on the site's page would
 * send, also from a visitor who goes around the proxy (Qwik City refuses a form post from another
 * origin, SolidStart's server-side sign-in one from another origin than AUTH_URL's).
 */
function send(visit: Visit, request: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawAnswer> {
  return rawRequest(visit.port, {
    ...request,
    from: visit.from,
    host: "127.0.0.1",
    headers: { host: new URL(visit.site).host, origin: visit.site, ...request.headers },
  });
}

/** The `name=value` pairs of an answer's Set-Cookie lines, as one Cookie header. */
function cookiesOf(answer: RawAnswer): string {
  return [answer.headers["set-cookie"] ?? []]
    .flat()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/**
 * A password sign-in through the library's credentials route at `basePath`, with the CSRF pair
 * fetched first: the `error` of the redirect (`CredentialsSignin` for a checked wrong password,
 * `RateLimited` for one refused unchecked), or `null` when it signed in.
 */
export async function credentialsSignIn(visit: Visit, basePath: string, fields: { username: string; password: string }): Promise<string | null> {
  const csrf = await send(visit, { path: `${basePath}/csrf` });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const answer = await send(visit, {
    method: "POST",
    path: `${basePath}/callback/credentials`,
    headers: { cookie: cookiesOf(csrf), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, ...fields, callbackUrl: "/" }).toString(),
  });
  if (answer.status >= 500 || !answer.headers.location) throw new Error(`the credentials route answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return new URL(answer.headers.location, "http://app.invalid").searchParams.get("error");
}

/** A `<form>` of a server-rendered page: where it posts, its hidden fields, and the cookies the page set. */
export interface RenderedForm {
  action: string;
  hidden: Record<string, string>;
  cookie: string;
}

const unescape = (text: string): string => text.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** The first form on `path` whose `action` matches `action`, as the server rendered it for `visit`. */
export async function renderedForm(visit: Visit, path: string, action: RegExp): Promise<RenderedForm> {
  const page = await send(visit, { path });
  for (const [, attributes, inner] of page.body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const target = /\baction="([^"]*)"/.exec(attributes!)?.[1];
    if (target === undefined || !action.test(unescape(target))) continue;
    const hidden: Record<string, string> = {};
    for (const [input] of inner!.matchAll(/<input\b[^>]*>/g)) {
      const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(input)?.[1];
      if (attribute("type") === "hidden" && attribute("name")) hidden[attribute("name")!] = unescape(attribute("value") ?? "");
    }
    return { action: unescape(target), hidden, cookie: cookiesOf(page) };
  }
  throw new Error(`no form posting to ${String(action)} on ${path} (${page.status}): ${page.body.slice(0, 500)}`);
}

/** Posts `form` from `visit` as a browser would: its hidden fields and `fields`, with the page's cookies (and `headers`). */
export function submitForm(visit: Visit, form: RenderedForm, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const target = new URL(form.action, "http://app.invalid/");
  return send(visit, {
    method: "POST",
    path: target.pathname + target.search,
    headers: { cookie: form.cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ ...form.hidden, ...fields }).toString(),
  });
}
