import http, { type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import { Duplex } from 'node:stream';

/**
 * One end of a connection held in memory: what it writes, its peer reads. A write waits while
 * the peer's reader is full (back-pressure crosses the pair), and destroying one end ends both.
 */
class MemoryEnd extends Duplex {
  peer!: MemoryEnd;
  private waiting: (() => void) | undefined;
  /** Read by Express (`req.ip`) and the usage row: the caller's address, not the relay's. */
  remoteAddress: string | undefined;
  readonly remotePort = 0;
  readonly encrypted = false;

  override _read(): void {
    const resume = this.peer.waiting;
    this.peer.waiting = undefined;
    resume?.();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.peer.destroyed) return done();
    if (this.peer.push(chunk)) done();
    else this.waiting = () => done();
  }

  override _final(done: (error?: Error | null) => void): void {
    if (!this.peer.destroyed) this.peer.push(null);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const resume = this.waiting;
    this.waiting = undefined;
    resume?.();
    if (!this.peer.destroyed) this.peer.destroy();
    done(error);
  }

  // What Node's HTTP server and client may call on a net.Socket.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

function memoryConnection(remoteAddress: string | undefined): { client: MemoryEnd; server: MemoryEnd } {
  const client = new MemoryEnd();
  const server = new MemoryEnd();
  client.peer = server;
  server.peer = client;
  server.remoteAddress = remoteAddress;
  client.remoteAddress = '127.0.0.1';
  return { client, server };
}

export interface InProcessRequest {
  path: string;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** The address of the caller the request is made for. */
  remoteAddress: string | undefined;
}

export interface InProcessCall {
  /** The answer's head; its body is the stream to read. */
  response: Promise<IncomingMessage>;
  /** The caller has gone: the connection is dropped, and the server sees its client leave. */
  abort(): void;
}

/**
 * A request made to this server as if a client had connected — every middleware, the route and
 * the pipeline see an ordinary HTTP request — over a connection held in memory: no port, no
 * socket, one connection per request (`connection: close`).
 */
export function requestInProcess(server: Server, request: InProcessRequest): InProcessCall {
  const { client, server: serverEnd } = memoryConnection(request.remoteAddress);
  server.emit('connection', serverEnd);
  const outgoing = http.request({
    method: 'POST',
    path: request.path,
    headers: { ...request.headers, 'content-length': request.body.length, connection: 'close' },
    createConnection: () => client,
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
  });
  outgoing.end(request.body);
  return {
    response,
    abort: () => {
      outgoing.destroy();
      client.destroy();
    },
  };
}
