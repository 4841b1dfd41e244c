/**
 * Reads a request body under a ceiling, counting bytes as they arrive. `Content-Length` is only a
 * first answer: a chunked or streamed body has none, and an in-process `Request` may declare one
 * its stream does not keep. Past the ceiling the stream is cancelled — nothing more is pulled from
 * the client — and `PayloadTooLarge` is thrown (answered 413).
 */
import { PayloadTooLarge } from "./errors.js";

const decoder = new TextDecoder();

/** The body of `request` as text, or `PayloadTooLarge` once more than `limit` bytes were declared or read. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(limit);
  }
  const stream = request.body;
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  // Most bodies arrive as one chunk: decoded as they are, without a copy.
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(joined);
}

function tooLarge(limit: number): PayloadTooLarge {
  return new PayloadTooLarge(`The request body is larger than the ${limit} bytes the library reads.`);
}

/**
 * `request` with a body whose cancellation stops at this wrapper: when the library stops reading,
 * it lets go of the framework's stream instead of cancelling it. For a framework whose body stream
 * is pushed from the socket without backpressure and throws when pushed to after a cancel — h3 1.x
 * under SolidStart on Node does, as an uncaught exception that ends the process. Bytes are handed on
 * as they arrive; nothing is buffered here.
 */
export function withDetachedBody(request: Request): Request {
  const source = request.body;
  if (!source) return request;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= source.getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        reader?.releaseLock();
      },
    },
    { highWaterMark: 0 },
  );
  const init: RequestInit & { duplex: "half" } = { method: request.method, headers: request.headers, body, duplex: "half", signal: request.signal };
  return new Request(request.url, init);
}
