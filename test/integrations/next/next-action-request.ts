/**
 * One request to a Next server action, served by Next's own request store (no Next build): the
 * action runs in Next's "action" phase, where `cookies()` is the mutable store whose reads reflect
 * the action's writes; then, as Next does before the re-render in the same request, the phase turns
 * to "render" and the read-only cookies are synchronised with the action's writes. The response's
 * `Set-Cookie` is what Next sends: one header per cookie name, the last write of each.
 */
import "./next-async-storage.js";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface RequestStore {
  phase: "action" | "render";
}
interface Storage {
  run<T>(store: unknown, work: () => Promise<T>): Promise<T>;
}
const { workAsyncStorage } = require("next/dist/server/app-render/work-async-storage.external.js") as { workAsyncStorage: Storage };
const { workUnitAsyncStorage } = require("next/dist/server/app-render/work-unit-async-storage.external.js") as { workUnitAsyncStorage: Storage };
const { createRequestStoreForRender, synchronizeMutableCookies } = require("next/dist/server/async-storage/request-store.js") as {
  createRequestStoreForRender(...args: unknown[]): RequestStore;
  synchronizeMutableCookies(store: RequestStore): void;
};

export class NextActionRequest {
  private readonly store: RequestStore;
  private readonly work = { route: "/", forceStatic: false, dynamicShouldError: false, isDraftMode: false };
  private setCookie: string[] = [];

  /** A POST of a server action from `page`, carrying the browser's `cookie` header. */
  constructor(page: string, cookie: string) {
    const url = new URL(page);
    const req = { headers: { host: url.host, "x-forwarded-proto": url.protocol.slice(0, -1), referer: url.href, ...(cookie ? { cookie } : {}) } };
    const res = { setHeader: (_name: string, value: string[]) => (this.setCookie = value) };
    this.store = createRequestStoreForRender(req, res, url, {}, undefined, undefined, undefined, false, undefined, undefined, undefined);
  }

  /** Runs the server action. */
  async action<T>(work: () => Promise<T>): Promise<T> {
    this.store.phase = "action";
    try {
      return await this.run(work);
    } finally {
      this.store.phase = "render";
    }
  }

  /** Renders the page in the same request, after the action (the action's answer carries it). */
  render<T>(work: () => Promise<T>): Promise<T> {
    this.store.phase = "render";
    synchronizeMutableCookies(this.store);
    return this.run(work);
  }

  /** The response's `Set-Cookie` headers, as a `Response` a browser can keep. */
  response(): Response {
    const headers = new Headers();
    for (const value of this.setCookie) headers.append("set-cookie", value);
    return new Response(null, { headers });
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    return workAsyncStorage.run(this.work, () => workUnitAsyncStorage.run(this.store, work));
  }
}
