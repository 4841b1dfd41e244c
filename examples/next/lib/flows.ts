/**
 * Who may see which recorded flow (see flow-recorder.ts): each browser gets a random, HttpOnly
 * viewer cookie the first time it reaches the auth routes or a server action, and the flows page
 * shows a browser only the flows its own requests ran. Nothing ties that id to a user; it is not a
 * session and grants nothing but the view of one's own flow paths, which hold no data anyway.
 *
 * Demo code: the recorder and the cookie live in this process's memory (one per `next start`), and
 * a flow's path shows branches an HTTP answer may keep to itself, which is why it is a demo page
 * and not a feature to ship as is.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { FlowRecorder, type RecordedFlow, type Viewer } from "./flow-recorder";

export const VIEWER_COOKIE = "appauth-demo.flows-viewer";
const VIEWER_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * `next/headers`, loaded when first used: auth.ts, which imports this module, is imported by pages of
 * the pages router too, where a static import of it is a build error.
 */
const cookies = async () => (await import("next/headers")).cookies();

interface Shared {
  recorder: FlowRecorder;
  viewer: AsyncLocalStorage<string>;
}

// Next bundles route handlers, pages and actions separately: one recorder per process, not per bundle.
const SHARED = Symbol.for("appauth-demo.flows");
const shared = ((globalThis as { [SHARED]?: Shared })[SHARED] ??= createShared());

function createShared(): Shared {
  const viewer = new AsyncLocalStorage<string>();
  return { viewer, recorder: new FlowRecorder({ viewerOf: () => viewer.getStore() ?? viewerFromCookie() }) };
}

/** The `inspect` observer of the demo's auth config. */
export const recordFlows = shared.recorder.observe;

/** The last flows of the browser making the current request, and its sign-ins waiting since (server components). */
export async function myFlows(): Promise<{ last: ReturnType<FlowRecorder["flowsOf"]>; waiting: RecordedFlow[] }> {
  const viewer = await viewerFromCookie();
  return { last: shared.recorder.flowsOf(viewer), waiting: shared.recorder.waitingOf(viewer) };
}

/**
 * Runs `work` as the current browser's viewer, giving the browser an id first when it has none:
 * for route handlers and server actions, the places where Next lets the app set a cookie.
 */
export async function asViewer<T>(work: () => Promise<T>): Promise<T> {
  let id: string | undefined;
  try {
    const jar = await cookies();
    id = jar.get(VIEWER_COOKIE)?.value;
    if (id === undefined || !VIEWER_ID.test(id)) {
      id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
      jar.set(VIEWER_COOKIE, id, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 * 60 * 24 });
    }
  } catch {
    // Outside a request Next can set cookies for: the flow runs, unrecorded.
    return work();
  }
  return shared.viewer.run(id, work);
}

/** The viewer id the request carries, read in its own context (server components call `auth()` there). */
function viewerFromCookie(): Viewer {
  return cookies().then(
    (jar) => {
      const id = jar.get(VIEWER_COOKIE)?.value;
      return id !== undefined && VIEWER_ID.test(id) ? id : undefined;
    },
    // Outside a request of the app router (the pages router's `auth(req, res)`): nobody's flow.
    () => undefined,
  );
}
