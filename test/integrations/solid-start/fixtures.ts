/**
 * SolidStart as the integration's tests see it: request events built the way SolidStart builds
 * them (the request, empty locals, the response's headers), run the way it runs server functions
 * (`provideRequestEvent` from solid-js), and a browser's cookie jar fed by the responses.
 */
import { provideRequestEvent } from "solid-js/web/storage";
import type { RequestEvent } from "solid-js/web";
import { expect } from "vitest";
import type ReactiveAuth from "../../../integrations/solid-start/index.js";
import type { AuthRequestEvent } from "../../../integrations/solid-start/index.js";
import { ORIGIN } from "../../helpers/config.js";
import { setCookiesOf } from "../../helpers/set-cookie.js";

export const CSRF_COOKIE = "appauth.csrf-token";
export const SAME_ORIGIN = { origin: ORIGIN, referer: `${ORIGIN}/login` };

/** A browser's cookie jar, fed by `Set-Cookie` headers in the order they come, as a browser applies them. */
export class Jar {
  readonly cookies = new Map<string, string>();
  keep(headers: Headers): void {
    for (const cookie of setCookiesOf(new Response(null, { headers }))) {
      if (cookie.maxAge !== undefined && cookie.maxAge <= 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }
}

export type TestEvent = AuthRequestEvent & { response: { headers: Headers } };

/** A SolidStart request event for `path`: the request, empty locals, and the response's headers. */
export function event(
  path: string,
  init: { jar?: Jar; method?: string; headers?: Record<string, string>; form?: Record<string, string>; clientAddress?: string } = {},
): TestEvent {
  const headers = new Headers(init.headers);
  if (init.jar?.cookies.size) headers.set("cookie", init.jar.header());
  let body: string | undefined;
  if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form).toString();
  }
  const request = new Request(new URL(path, ORIGIN), { method: init.method ?? (body ? "POST" : "GET"), headers, ...(body ? { body } : {}) });
  return { request, clientAddress: init.clientAddress, locals: {}, response: { headers: new Headers() } };
}

/** Runs `work` as SolidStart runs a server function: with `current` as the request event. */
export function serving<T>(current: AuthRequestEvent, work: () => Promise<T>): Promise<T> {
  return provideRequestEvent(current as unknown as RequestEvent, work);
}

export function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

/** What a server function threw: the redirect `Response` SolidStart follows, or an error. */
export async function thrownBy(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** A visitor who has loaded a page with a sign-in form: the CSRF cookie in the jar, the token in the form. */
export async function visitor(auth: ReturnType<typeof ReactiveAuth>, jar = new Jar()): Promise<{ jar: Jar; token: string }> {
  const page = event("/login", { jar });
  const token = await serving(page, () => auth.csrfToken());
  jar.keep(page.response.headers);
  expect(jar.cookies.has(CSRF_COOKIE)).toBe(true);
  return { jar, token };
}
