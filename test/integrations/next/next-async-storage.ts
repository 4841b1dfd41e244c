/**
 * What Next's server sets up before any of its modules load: `AsyncLocalStorage` on `globalThis`,
 * where Next's request storage looks for it (without it, Next makes a stand-in that throws when
 * used). Import this first in a test that serves requests with Next's own request store.
 */
import { AsyncLocalStorage } from "node:async_hooks";

(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
