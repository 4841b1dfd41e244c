/**
 * A fake identity provider for whole sign-ins through `Auth`: it plays one catalog provider's
 * servers behind a `[customFetch]` — discovery document, JWKS, token endpoint, APIs — answering
 * with the documented sample of its fixture (`fixtures/<id>.ts`), and checks what it is sent as the real one would:
 * the code it issued (once), the redirect_uri and PKCE verifier bound to it, and the client
 * authentication the provider accepts. A request it would refuse gets a 400 in OAuth's error format.
 */
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import type { ProviderFetch } from "../../../../src/providers/oauth-types.js";
import { fakeFetch, Reply, type RecordedCall } from "./fake-fetch.js";
import type { ProviderFacts, ProviderSample } from "./fixture.js";

const KID = "flow-test-rsa-1";

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
}

let signingKey: Promise<SigningKey> | undefined;

/** One RSA key for every fake provider of the run: generating one per test would dominate the run time. */
function testSigningKey(): Promise<SigningKey> {
  signingKey ??= generateKeyPair("RS256").then(async ({ privateKey, publicKey }) => ({
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid: KID, alg: "RS256", use: "sig" },
  }));
  return signingKey;
}

const EC_KID = "flow-test-p256-1";
let ecSigningKey: Promise<SigningKey> | undefined;

/** One P-256 key for the providers that sign ID tokens with ES256 (Roblox). */
function testEcSigningKey(): Promise<SigningKey> {
  ecSigningKey ??= generateKeyPair("ES256").then(async ({ privateKey, publicKey }) => ({
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid: EC_KID, alg: "ES256", use: "sig" },
  }));
  return ecSigningKey;
}

/** What the person's consent at the provider bound to the code it issued. */
interface Grant {
  redirectUri: string;
  codeChallenge: string | null;
  nonce: string | null;
  used: boolean;
}

/** One code exchange as the token endpoint judged it. */
export interface TokenExchange {
  params: Record<string, string>;
  /** `null` when accepted, else the OAuth error it was refused with. */
  error: string | null;
}

/** One outbound call and the status it was answered with. */
export interface AnsweredCall extends RecordedCall {
  status: number;
}

/** Where the provider sends the browser back, and how (`POST` for form_post). */
export interface ProviderCallback {
  method: "GET" | "POST";
  params: URLSearchParams;
}

export class FakeIdentityProvider {
  readonly calls: AnsweredCall[] = [];
  readonly exchanges: TokenExchange[] = [];
  private readonly grants = new Map<string, Grant>();
  readonly fetch: ProviderFetch;

  private constructor(
    readonly facts: ProviderFacts,
    readonly sample: ProviderSample,
    private readonly key: SigningKey,
    private readonly forged: Record<string, unknown>,
  ) {
    const recorded = fakeFetch(this.routes());
    this.fetch = async (input, init) => {
      const response = await recorded(input, init);
      this.calls.push({ ...recorded.calls.at(-1)!, status: response.status });
      return response;
    };
  }

  /** `forged` claims replace what the provider would put in its ID tokens (to play a token minted for another sign-in). */
  static async start(facts: ProviderFacts, sample: ProviderSample, forged: Record<string, unknown> = {}): Promise<FakeIdentityProvider> {
    const key = facts.idTokenAlg === "ES256" ? await testEcSigningKey() : await testSigningKey();
    return new FakeIdentityProvider(facts, sample, key, forged);
  }

  /**
   * The person signs in and consents at `authorization` (the URL the app redirected to): a code is
   * issued, bound to the request's redirect_uri, code_challenge and nonce, and sent back with the
   * request's state and whatever else the provider adds.
   */
  authorize(authorization: URL, extra: Record<string, string> = {}): ProviderCallback {
    const query = authorization.searchParams;
    const code = `code-${crypto.randomUUID()}`;
    this.grants.set(code, {
      redirectUri: query.get("redirect_uri") ?? "",
      codeChallenge: query.get("code_challenge"),
      nonce: query.get("nonce"),
      used: false,
    });
    const params = new URLSearchParams({ code });
    const state = query.get("state");
    if (state !== null) params.set("state", state);
    if (this.facts.callback?.iss) params.set("iss", this.facts.callback.iss);
    for (const [name, value] of Object.entries({ ...this.facts.callback?.params, ...extra })) params.set(name, value);
    return { method: this.facts.callback?.method ?? "GET", params };
  }

  /** The hosts called that the provider's documentation does not name. */
  undocumentedHosts(): string[] {
    return [...new Set(this.calls.map((call) => new URL(call.url).host))].filter((host) => !this.facts.hosts.includes(host));
  }

  private routes(): Record<string, unknown> {
    const { facts, sample } = this;
    const routes: Record<string, unknown> = {};
    for (const [key, body] of Object.entries(sample.responses ?? {})) {
      // Notion's and WorkOS's token answers are listed with the resources: the token route serves them.
      if (key === `POST ${facts.token.url}` || key === facts.token.url) continue;
      routes[key] = (call: RecordedCall) => this.resource(call, body);
    }
    if (facts.oidc) {
      const { oidc } = facts;
      routes[`GET ${oidc.discovery}`] = {
        issuer: oidc.issuer,
        authorization_endpoint: facts.authorize,
        token_endpoint: facts.token.url,
        ...(oidc.userinfo ? { userinfo_endpoint: oidc.userinfo } : {}),
        jwks_uri: oidc.jwks,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: [facts.idTokenAlg === "ES256" ? "ES256" : "RS256"],
        ...oidc.metadata,
      };
      routes[`GET ${oidc.jwks}`] = { keys: [this.key.publicJwk] };
    }
    routes[`POST ${facts.token.url}`] = (call: RecordedCall) => this.token(call);
    // An exchange whose parameters are in the query reaches the same endpoint.
    if (facts.token.auth === "client_secret_query") routes[`POST ${facts.token.url}?*`] = routes[`POST ${facts.token.url}`];
    // VK and WeChat take the exchange as a GET (and only so).
    if (facts.token.method === "GET") {
      routes[`GET ${facts.token.url}?*`] = routes[`POST ${facts.token.url}`];
      delete routes[`POST ${facts.token.url}`];
      delete routes[`POST ${facts.token.url}?*`];
    }
    return routes;
  }

  /** An API call: answered only with the access token of the exchange, in the provider's scheme. */
  private resource(call: RecordedCall, body: unknown): unknown {
    const token = String(this.sample.accessToken ?? this.sample.tokenResponse.access_token);
    if (this.facts.apiToken === "url") return call.url.includes(encodeURIComponent(token)) ? body : Reply.json(401, { error: "invalid_token" });
    const scheme = this.facts.apiScheme ?? "Bearer";
    const expected = scheme === "" ? token : `${scheme} ${token}`;
    if (call.headers.get("authorization") !== expected) return Reply.json(401, { error: "invalid_token" });
    return body;
  }

  private async token(call: RecordedCall): Promise<Reply> {
    const params = this.tokenParams(call);
    const error = params ? await this.refusal(call, params) : "invalid_request";
    this.exchanges.push({ params: params ?? {}, error });
    if (error !== null) return Reply.json(error === "invalid_client" ? 401 : 400, { error });
    const answer: Record<string, unknown> = { ...this.sample.tokenResponse };
    const grant = this.grants.get((params!.code ?? params!.assertion)!)!;
    if (this.sample.claims) answer.id_token = await this.idToken(grant);
    if (this.facts.token.jsonOnlyWhenAsked && !(call.headers.get("accept") ?? "").includes("application/json")) {
      const form = new URLSearchParams(Object.entries(answer).map(([k, v]) => [k, String(v)]));
      return new Reply(200, form.toString(), { "content-type": "application/x-www-form-urlencoded" });
    }
    return Reply.json(200, answer);
  }

  /** The exchange's parameters, decoded as the provider reads them; `null` when not so encoded. */
  private tokenParams(call: RecordedCall): Record<string, string> | null {
    const type = call.headers.get("content-type") ?? "";
    if (this.facts.token.auth === "client_secret_query") {
      return call.body ? null : Object.fromEntries(new URL(call.url).searchParams);
    }
    if (this.facts.token.body === "json") {
      if (!type.startsWith("application/json")) return null;
      try {
        const body = JSON.parse(call.body ?? "") as Record<string, unknown>;
        return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
      } catch {
        return null;
      }
    }
    if (!type.startsWith("application/x-www-form-urlencoded")) return null;
    return Object.fromEntries(new URLSearchParams(call.body ?? ""));
  }

  /** Why the provider would refuse this exchange (an OAuth error code), or `null` when it would not. */
  private async refusal(call: RecordedCall, params: Record<string, string>): Promise<string | null> {
    const { facts } = this;
    if (!this.clientAuthenticated(call, params)) return "invalid_client";
    const grantType = facts.token.grantType ?? "authorization_code";
    if (grantType === "jwt-bearer" && params.grant_type !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return "unsupported_grant_type";
    if (grantType === "authorization_code" && params.grant_type !== "authorization_code") return "unsupported_grant_type";
    const code = grantType === "jwt-bearer" ? params.assertion : params.code;
    const grant = code === undefined ? undefined : this.grants.get(code);
    if (!grant || grant.used) return "invalid_grant";
    grant.used = true;
    if (facts.token.redirectUri !== false && params.redirect_uri !== grant.redirectUri) return "invalid_grant";
    if (grant.codeChallenge === null) return params.code_verifier === undefined ? null : "invalid_request";
    if (params.code_verifier === undefined) return "invalid_request";
    return (await s256(params.code_verifier)) === grant.codeChallenge ? null : "invalid_grant";
  }

  /** The client authenticated the one way the provider accepts, and only that way. */
  private clientAuthenticated(call: RecordedCall, params: Record<string, string>): boolean {
    const { clientId, clientSecret, token } = this.facts;
    const header = call.headers.get("authorization");
    if (token.auth === "client_secret_assertion") {
      return (
        header === null &&
        params.client_secret === undefined &&
        params.client_assertion_type === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" &&
        params.client_assertion === clientSecret
      );
    }
    if (token.auth === "client_secret_post" || token.auth === "client_secret_query") {
      return header === null && params[token.clientIdParam ?? "client_id"] === clientId && params[token.clientSecretParam ?? "client_secret"] === clientSecret;
    }
    if (params.client_secret !== undefined || !header?.startsWith("Basic ")) return false;
    if (params.client_id !== undefined && params.client_id !== clientId) return false;
    // RFC 6749 §2.3.1: each part form-encoded, then joined and base64-encoded.
    const decoded = atob(header.slice("Basic ".length));
    const colon = decoded.indexOf(":");
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return colon > 0 && formDecode(decoded.slice(0, colon)) === clientId && formDecode(decoded.slice(colon + 1)) === clientSecret;
  }

  /**
   * The sample's claims as this provider issues them now: to the client that asked, with the nonce
   * of the authorization request (none when it sent none), and times shifted to the present.
   */
  private async idToken(grant: Grant): Promise<string> {
    const claims: Record<string, unknown> = { ...this.sample.claims };
    const now = Math.floor(Date.now() / 1000);
    const iat = typeof claims.iat === "number" ? claims.iat : now;
    for (const time of ["iat", "exp", "nbf", "auth_time"]) {
      if (typeof claims[time] === "number") claims[time] = now + ((claims[time] as number) - iat);
    }
    claims.aud = Array.isArray(claims.aud) ? [this.facts.clientId] : this.facts.clientId;
    if (claims.azp !== undefined) claims.azp = this.facts.clientId;
    if (grant.nonce === null) delete claims.nonce;
    else claims.nonce = grant.nonce;
    const jwt = new SignJWT({ ...claims, ...this.forged });
    if (this.facts.idTokenAlg === "HS256") {
      return jwt.setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(this.facts.clientSecret));
    }
    const { alg, kid } = this.key.publicJwk;
    return jwt.setProtectedHeader({ alg: alg!, kid: kid!, typ: "JWT" }).sign(this.key.privateKey);
  }
}

/** The PKCE S256 challenge of a verifier (RFC 7636 §4.2). */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
