/**
 * Just enough MIME (RFC 2045–2047) to read the mails an SMTP server receives: header unfolding,
 * encoded words, multipart bodies nested to any depth, and quoted-printable, base64, 7bit and 8bit
 * parts in any charset the runtime's TextDecoder knows. It finds a mail's text and HTML bodies; it
 * is a reader for the demo's dev mailbox and for tests, not a general-purpose mail parser.
 */

export interface DecodedMessage {
  /** Header names lowercased; a repeated header keeps its first value. Values unfolded and decoded. */
  headers: Map<string, string>;
  from: string;
  /** The `To` header as written (the envelope says who actually receives the mail). */
  toHeader: string;
  subject: string;
  /** The first text/plain body that is not an attachment. */
  text?: string;
  /** The first text/html body that is not an attachment. */
  html?: string;
}

interface Part {
  headers: Map<string, string>;
  /** Raw bytes of the body, one char per byte (latin1). */
  body: string;
}

const CRLF = "\r\n";

/** Splits a header block and body at the first empty line; bare LF line ends are accepted too. */
function splitEntity(raw: string): Part {
  const text = raw.replace(/\r?\n/g, CRLF);
  const end = text.indexOf(CRLF + CRLF);
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? "" : text.slice(end + 4);
  const headers = new Map<string, string>();
  // Unfold: a line that starts with white space continues the previous one (RFC 5322 §2.2.3).
  for (const line of head.replace(/\r\n(?=[ \t])/g, "").split(CRLF)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Bytes (one char per byte) to text in `charset`; an unknown charset falls back to UTF-8. */
function decodeBytes(bytes: string, charset: string | undefined): string {
  const buffer = Uint8Array.from(bytes, (c) => c.charCodeAt(0) & 0xff);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset || "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(buffer);
}

export function decodeQuotedPrintable(body: string): string {
  return body
    .replace(/[ \t]+(?=\r?\n|$)/g, "") // white space a transport may have added at line ends
    .replace(/=\r?\n/g, "") // soft line breaks
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function decodeBase64(body: string): string {
  return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64").toString("latin1");
}

function decodeTransfer(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    case "base64":
      return decodeBase64(body);
    default:
      return body;
  }
}

/** `=?charset?B|Q?text?=` words (RFC 2047); white space between two adjacent words is dropped. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  return value.replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?)/g, "$1").replace(word, (_, charset: string, kind: string, text: string) => {
    const bytes =
      kind.toUpperCase() === "B"
        ? decodeBase64(text)
        : text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    // RFC 2231 allows a language after `*` in the charset: `utf-8*en`.
    return decodeBytes(bytes, charset.split("*")[0]);
  });
}

/** `type/subtype; name=value; name="quoted value"` → the lowercased type and its parameters. */
export function parseContentType(value: string | undefined): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  if (!value) return { type: "text/plain", params };
  const [type = "", ...rest] = splitParams(value);
  for (const piece of rest) {
    const equals = piece.indexOf("=");
    if (equals <= 0) continue;
    const name = piece.slice(0, equals).trim().toLowerCase();
    let param = piece.slice(equals + 1).trim();
    if (param.startsWith('"') && param.endsWith('"') && param.length >= 2) param = param.slice(1, -1).replace(/\\(.)/g, "$1");
    params.set(name, param);
  }
  return { type: type.trim().toLowerCase() || "text/plain", params };
}

/** Splits on `;` outside quoted strings. */
function splitParams(value: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && quoted && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ";" && !quoted) {
      pieces.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  pieces.push(current);
  return pieces;
}

/** The body parts between `--boundary` delimiter lines; the preamble and epilogue are dropped. */
export function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `${CRLF}--${boundary}`;
  // The CRLF before a delimiter belongs to the delimiter; the first one may open the body.
  const chunks = (CRLF + body).split(delimiter);
  const parts: string[] = [];
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith("--")) break; // the close delimiter
    const lineEnd = chunk.indexOf(CRLF);
    parts.push(lineEnd === -1 ? "" : chunk.slice(lineEnd + 2));
  }
  return parts;
}

function isAttachment(part: Part): boolean {
  return (part.headers.get("content-disposition") ?? "").trim().toLowerCase().startsWith("attachment");
}

/** Walks the part tree depth first and keeps the first text and HTML body. */
function collectBodies(part: Part, found: { text?: string; html?: string }, depth: number): void {
  if (depth > 20) return;
  const { type, params } = parseContentType(part.headers.get("content-type"));
  const boundary = params.get("boundary");
  if (type.startsWith("multipart/") && boundary) {
    for (const child of splitMultipart(part.body, boundary)) collectBodies(splitEntity(child), found, depth + 1);
    return;
  }
  if (isAttachment(part)) return;
  if (type !== "text/plain" && type !== "text/html") return;
  const decoded = decodeBytes(decodeTransfer(part.body, part.headers.get("content-transfer-encoding")), params.get("charset"));
  if (type === "text/plain") found.text ??= decoded;
  else found.html ??= decoded;
}

/**
 * Decodes a whole message as received over SMTP (the DATA bytes). Pass a Buffer to keep 8-bit
 * bodies intact; a string is taken as already decoded text.
 */
export function decodeMessage(raw: Uint8Array | string): DecodedMessage {
  const binary = typeof raw === "string" ? Buffer.from(raw, "utf8").toString("latin1") : Buffer.from(raw).toString("latin1");
  const root = splitEntity(binary);
  const header = (name: string) => {
    const value = root.headers.get(name);
    // Header bytes outside ASCII (SMTPUTF8) are UTF-8.
    return value === undefined ? "" : decodeEncodedWords(decodeBytes(value, "utf-8"));
  };
  const headers = new Map<string, string>();
  for (const name of root.headers.keys()) headers.set(name, header(name));
  const bodies: { text?: string; html?: string } = {};
  collectBodies(root, bodies, 0);
  return {
    headers,
    from: header("from"),
    toHeader: header("to"),
    subject: header("subject"),
    ...(bodies.text !== undefined ? { text: bodies.text } : {}),
    ...(bodies.html !== undefined ? { html: bodies.html } : {}),
  };
}
