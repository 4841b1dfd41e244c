/**
 * A TCP proxy on loopback that a test can cut: every open connection is destroyed and new ones are
 * refused until `restore()`. It can stall instead: connections stay open and new ones are accepted,
 * but nothing is forwarded either way (a store that hangs), until `restore()` ends them.
 * It can also cut at one precise moment of a PostgreSQL conversation:
 * `cutAfterAnswer(pattern)` lets the first query whose text matches reach the server, forwards the
 * server's complete answer to it (up to ReadyForQuery), and cuts right then, so the client has seen
 * that statement succeed and whatever it sends next meets a dead connection.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface CuttableProxy {
  /** The loopback port to connect to instead of the target's. */
  port: number;
  /** Destroys every open connection and refuses new ones. */
  cut(): void;
  /** Accepts every connection and forwards nothing from now on, either way. */
  stall(): void;
  /** Accepts new connections again (those cut stay dead); ends the connections a stall held. */
  restore(): void;
  readonly isStalled: boolean;
  readonly isCut: boolean;
  /**
   * Arms a one-shot cut: after the server has answered the first query whose text matches `pattern`
   * (and that answer has been handed to the client), everything is cut. Resolves once it has happened.
   */
  cutAfterAnswer(pattern: RegExp): Promise<void>;
  /** As `cutAfterAnswer`, but stalls instead of cutting: the client's next statement gets no answer. */
  stallAfterAnswer(pattern: RegExp): Promise<void>;
  /** Disarms a cut armed by `cutAfterAnswer` that has not happened. */
  disarm(): void;
  /** How many connections were refused while cut. */
  readonly refused: number;
  close(): Promise<void>;
}

interface Armed {
  pattern: RegExp;
  fire: () => void;
  then: "cut" | "stall";
}

/**
 * PostgreSQL ends every answer with ReadyForQuery: 'Z', length 5 (int32), and one status byte. A
 * chunk that ends so closes the answer to what the client sent before it (pg does not pipeline).
 */
function endsWithReadyForQuery(chunk: Buffer): boolean {
  const n = chunk.length;
  return n >= 6 && chunk[n - 6] === 0x5a && chunk.readInt32BE(n - 5) === 5;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  let isCut = false;
  let isStalled = false;
  let refused = 0;
  let armed: Armed | undefined;

  function cut(): void {
    isCut = true;
    for (const socket of open) socket.destroy();
    open.clear();
  }

  function stall(): void {
    isStalled = true;
  }

  const server: Server = createServer((client) => {
    if (isCut) {
      refused++;
      client.destroy();
      return;
    }
    if (isStalled) {
      // Accepted, and never answered: the connection hangs until restore() ends it.
      open.add(client);
      client.on("error", () => client.destroy());
      client.on("close", () => open.delete(client));
      return;
    }
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    // The tail of what the client sent, so a query text split over two chunks is still seen whole.
    let sent = "";
    let doomed = false;

    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", drop);
    upstream.on("close", drop);

    client.on("data", (chunk: Buffer) => {
      if (isStalled) return;
      if (armed && !doomed) {
        sent = (sent + chunk.toString("latin1")).slice(-4096);
        if (armed.pattern.test(sent)) doomed = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (isStalled) return;
      if (doomed && armed && endsWithReadyForQuery(chunk)) {
        const { fire, then } = armed;
        armed = undefined;
        if (then === "stall") stall();
        // Cut (or stall) once the answer is in the kernel's hands: the client reads it, then meets the end.
        client.write(chunk, () => {
          if (then === "cut") cut();
          fire();
        });
        return;
      }
      client.write(chunk);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });

  return {
    port: (server.address() as AddressInfo).port,
    cut,
    stall,
    restore() {
      if (isStalled) {
        // What a stall held is half a conversation: it cannot be resumed, only ended.
        for (const socket of open) socket.destroy();
        open.clear();
      }
      isCut = false;
      isStalled = false;
    },
    get isCut() {
      return isCut;
    },
    get isStalled() {
      return isStalled;
    },
    get refused() {
      return refused;
    },
    cutAfterAnswer(pattern) {
      return new Promise<void>((resolve) => {
        armed = { pattern, fire: resolve, then: "cut" };
      });
    },
    stallAfterAnswer(pattern) {
      return new Promise<void>((resolve) => {
        armed = { pattern, fire: resolve, then: "stall" };
      });
    },
    disarm() {
      armed = undefined;
    },
    close() {
      cut();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
