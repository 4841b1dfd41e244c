/**
 * The provider's answer on the callback as the OAuth machine keeps it: plain data, each parameter
 * with every value it came with (oauth4webapi refuses a repeated `code` or `state`, so none is
 * dropped on the way), turned back into `URLSearchParams` where a protocol call takes them.
 */
import type { CallbackParams } from "../../machines/oauth.machine.js";

export function callbackParamsOf(params: URLSearchParams): CallbackParams {
  // A Map first: a parameter named `__proto__` must stay a parameter.
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return Object.fromEntries(grouped);
}

export function searchParamsOf(params: CallbackParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, values] of Object.entries(params)) for (const value of values) out.append(key, value);
  return out;
}
