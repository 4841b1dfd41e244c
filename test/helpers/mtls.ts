/**
 * Mutual TLS on loopback for the RFC 8705 tests: self-signed certificates made with the `openssl`
 * command (a client's, and the proxy's for 127.0.0.1), a TLS-terminating proxy that asks every
 * visitor for a certificate and hands it to the plain-http test OP behind it in `x-ssl-client-cert`
 * (as nginx's `$ssl_client_escaped_cert` does), and a `fetch` that presents a client certificate.
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpsRequest } from "node:https";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderFetch } from "../../src/providers/oauth-types.js";

export interface Certificate {
  /** PEM of the certificate and of its private key. */
  cert: string;
  key: string;
}

/** A fresh self-signed P-256 certificate for `subject` (with `127.0.0.1` as an IP SAN), valid a day. */
export function selfSignedCertificate(subject: string): Certificate {
  const dir = mkdtempSync(join(tmpdir(), "appauth-mtls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", `/CN=${subject}`,
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      { stdio: "ignore" },
    );
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The certificate as a JWK `x5c` entry (base64 DER), for a client registered with `self_signed_tls_client_auth`. */
export function x5cOf(pem: string): string {
  return new X509Certificate(pem).raw.toString("base64");
}

export interface TlsProxy {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  /** The port of the plain-http server behind it; set once that server listens. */
  upstreamPort: number;
  close(): Promise<void>;
}

/** A TLS-terminating proxy on loopback, serving `server`'s certificate, to `http://127.0.0.1:<upstreamPort>`. */
export async function startTlsProxy(server: Certificate): Promise<TlsProxy> {
  const proxy: TlsProxy = { origin: "", upstreamPort: 0, close: async () => undefined };
  const https = createServer({ ...server, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const headers = { ...req.headers };
    delete headers["x-ssl-client-cert"];
    if (peer?.raw) {
      const pem = new X509Certificate(peer.raw).toString();
      headers["x-ssl-client-cert"] = encodeURIComponent(pem);
    }
    const upstream = httpRequest(
      { host: "127.0.0.1", port: proxy.upstreamPort, method: req.method, path: req.url, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
  proxy.origin = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      https.closeAllConnections();
      https.close(() => resolve());
    });
  return proxy;
}

/**
 * A `fetch` that presents `client`'s certificate on https requests (trusting `serverCert` only) and
 * sends plain-http ones with the global `fetch`: what an application's `[customFetch]` does with
 * undici's `Agent`, here with node:https so the test needs nothing more.
 */
export function certificateFetch(client: Certificate, serverCert: string): ProviderFetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== "https:") return fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(
        url,
        { method: request.method, headers: Object.fromEntries(request.headers), ...client, ca: serverCert, agent: false },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(answer.headers)) if (typeof value === "string") headers.set(name, value);
            resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 502, headers }));
          });
          answer.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  };
}
