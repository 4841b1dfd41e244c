/**
 * The refresh_token grant with a DPoP proof of the key the account's tokens are bound to. A
 * `use_dpop_nonce` answer is retried once, inside this one step: the token-refresh machine's
 * states are about leases and peers, and a nonce retry changes none of them.
 */
import type * as oauth from "oauth4webapi";
import type { Runtime } from "../config/runtime.js";
import { dpopTokenRequest } from "../oauth/dpop.js";

export async function refreshWithDPoP(
  rt: Runtime,
  providerId: string,
  options: { client: oauth.Client; key: string },
  send: (handle: oauth.DPoPHandle) => Promise<Response>,
  check: (response: Response) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  const first = await dpopTokenRequest(rt, providerId, { client: options.client, dpop: { key: options.key } }, send, check);
  if ("result" in first) return first.result;
  const retried = await dpopTokenRequest(rt, providerId, { client: options.client, dpop: { key: options.key, nonce: first.nonce } }, send, check);
  if ("result" in retried) return retried.result;
  // dpopTokenRequest refuses a second nonce request itself; this is never reached.
  throw new Error("unreachable: a second DPoP nonce request");
}
