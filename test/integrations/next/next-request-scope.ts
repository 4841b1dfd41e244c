/**
 * What Next's runtime gives `next/headers` while it serves a request, for tests that run without
 * Next: the request's headers, and a cookie store that reads the browser's cookies and records what
 * is set (refusing writes where Next does: in server components). Tests replace `next/headers.js`
 * with `nextHeaders` and run code inside `inRequest(scope, ...)`; everything else of Next is real.
 */

export interface CookieWrite {
  name: string;
  value: string;
  options: Record<string, unknown>;
}

export interface ScopeInit {
  /** The page the request is for (server components) or comes from (`Referer` of a server action). */
  url?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  /** Server actions and route handlers may set cookies; server components may not. Default true. */
  canSetCookies?: boolean;
}

export class RequestScope {
  readonly headers: Headers;
  readonly jar = new Map<string, string>();
  readonly writes: CookieWrite[] = [];
  readonly canSetCookies: boolean;

  constructor(init: ScopeInit = {}) {
    const url = new URL(init.url ?? "http://localhost:3000/");
    this.headers = new Headers({ host: url.host, "x-forwarded-proto": url.protocol.slice(0, -1), referer: url.href, ...init.headers });
    for (const [name, value] of Object.entries(init.cookies ?? {})) this.jar.set(name, value);
    if (this.jar.size) this.headers.set("cookie", [...this.jar].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; "));
    this.canSetCookies = init.canSetCookies ?? true;
  }

  /** The cookies a browser would hold after this request: its own, with the writes applied. */
  cookiesAfter(): Record<string, string> {
    return Object.fromEntries(this.jar);
  }

  /** The last value written for `name`, or undefined. */
  written(name: string): CookieWrite | undefined {
    return this.writes.filter((w) => w.name === name).at(-1);
  }
}

let current: RequestScope | undefined;

/** Runs `work` as if Next were serving the request `scope` describes. */
export async function inRequest<T>(scope: RequestScope, work: () => Promise<T>): Promise<T> {
  current = scope;
  try {
    return await work();
  } finally {
    current = undefined;
  }
}

function scope(api: string): RequestScope {
  if (!current) throw new Error(`\`${api}\` was called outside a request scope.`);
  return current;
}

/** The module that replaces `next/headers.js`. */
export const nextHeaders = {
  async headers(): Promise<Headers> {
    return scope("headers").headers;
  },
  async cookies() {
    const s = scope("cookies");
    return {
      getAll: () => [...s.jar].map(([name, value]) => ({ name, value })),
      get: (name: string) => (s.jar.has(name) ? { name, value: s.jar.get(name)! } : undefined),
      set(name: string, value: string, options: Record<string, unknown> = {}) {
        if (!s.canSetCookies) throw new Error("Cookies can only be modified in a Server Action or Route Handler.");
        s.writes.push({ name, value, options });
        const expires = options.expires instanceof Date ? options.expires.getTime() : undefined;
        if (options.maxAge === 0 || (expires !== undefined && expires <= Date.now())) s.jar.delete(name);
        else s.jar.set(name, value);
      },
    };
  },
};
