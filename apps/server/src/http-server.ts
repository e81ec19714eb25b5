import http, { type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { RelayError } from '@chat-relay/wire';
import type { ResponsesWebSockets } from './dialects/responses/websocket/responses-websockets';
import { writeJsonError, writeSocketError } from './middleware/error-handler';

export interface HttpServerOptions {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /**
   * Time to receive the whole request, body included. Node stops counting once the request is
   * received: a streamed answer may last as long as it needs.
   */
  requestTimeoutMs: number;
  /** Serves `GET /v1/responses` upgraded to a WebSocket; without it, upgrades are ordinary requests. */
  webSockets?: ResponsesWebSockets;
}

/**
 * The HTTP server around the app: request timeouts that fire on time (Node checks them every
 * `connectionsCheckingInterval`, 30 s by default), and parser errors answered in the OpenAI
 * error shape rather than Node's empty 400/408/431.
 */
export function createHttpServer(app: Express, options: HttpServerOptions): Server {
  const server = http.createServer(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      // A tenth of the shorter timeout, 50 ms – 1 s: late by at most that; a check walks only
      // the connections still receiving a request.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(options.headersTimeoutMs / 10))),
      ...expressMessageClasses(app),
    },
    app,
  );
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, options));
  // Node answers an `Expect` other than 100-continue with an empty 417, and drops CONNECT.
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('connection', 'close');
    writeJsonError(res, refuse(417, 'expectation_failed', 'Only the Expect value 100-continue is supported.'));
  });
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    writeSocketError(socket, refuse(405, 'method_not_allowed', 'CONNECT is not supported: this is not a proxy.'));
  });
  options.webSockets?.attach(server, app);
  return server;
}

/**
 * `res.locals` with nothing inherited, as Express's own, but a fast object: instances of a class
 * whose prototype has no prototype. Express makes it with `Object.create(null)`, which V8 keeps as
 * a dictionary from the start.
 */
const ResponseLocals = function ResponseLocals() {
  // Nothing to set: what a route keeps here is added by name.
} as unknown as new () => Record<string, unknown>;
ResponseLocals.prototype = Object.create(null) as object;

const writeHeadOf = http.ServerResponse.prototype.writeHead as (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse;

/**
 * The response head as one flat string. Node builds it with a `+=` per part of every header — ~40
 * for a stream's head — and keeps it in `res._header` (which `headersSent` reads) as long as the
 * response lives: a rope of ~40 string pieces, ~1.5 KB a response where the text is ~0.4 KB. A
 * head holds only Latin-1 (Node refuses any other character in a header or the status line), so
 * the round trip gives the same text.
 */
function flatHead(head: string): string {
  return Buffer.from(head, 'latin1').toString('latin1');
}

/** The classes made for an app, so that a second server on the same app shares them. */
const messageClasses = new WeakMap<Express, Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>>();

/**
 * Node's request and response made with Express's prototypes from the start. Express 4 gives
 * every request and response its own prototype (`Object.setPrototypeOf` in its `init`
 * middleware); changing the prototype of a live object throws away V8's optimised shape for it,
 * and every property access on that request and response afterwards — Node's HTTP code included —
 * takes the slow path. Constructed with the prototype Express wants, its `setPrototypeOf` finds
 * nothing to change. A bare Express app served this way answers about twice the requests per
 * second on the same CPU (docs/PERFORMANCE.md, issue 30).
 *
 * The response is a subclass of Node's, and the app's `response` prototype becomes that
 * subclass's prototype (whose own prototype is the app's former one, Express's methods and
 * all). Only a subclass gives every response one shared, fast shape: V8 sizes a subclass's
 * objects like its base's and keeps one map for them. A plain function in its place (as the
 * request has) made each response with no in-object room, and Node's symbol-keyed stores past a
 * dozen properties turned it into a dictionary of ~3 KB; `Reflect.construct` with a plain
 * function as `new.target` gave fast objects but a new map for every response (~45 maps, ~4 KB,
 * and property caches that never settle). Measured with 2,000 open streams (issue 30).
 */
export function expressMessageClasses(app: Express): Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const made = messageClasses.get(app);
  if (made) return made;
  // Node's classes are plain constructor functions (node/lib/_http_incoming.js): callable on an
  // object made with another prototype. A request adds its properties by name: it stays fast.
  const incoming = http.IncomingMessage as unknown as (this: http.IncomingMessage, socket: Socket) => void;
  function RelayRequest(this: http.IncomingMessage, socket: Socket): void {
    incoming.call(this, socket);
  }
  RelayRequest.prototype = app.request;
  class RelayResponse extends http.ServerResponse {
    // Express's init keeps a `locals` already there; its own is a null-prototype dictionary (~0.3 KB).
    locals = new ResponseLocals();

    override writeHead(
      statusCode: number,
      reason?: string | http.OutgoingHttpHeaders | http.OutgoingHttpHeader[],
      headers?: http.OutgoingHttpHeaders | http.OutgoingHttpHeader[],
    ): this {
      writeHeadOf.call(this, statusCode, reason, headers);
      const stored = this as unknown as { _header: unknown };
      if (typeof stored._header === 'string') stored._header = flatHead(stored._header);
      return this;
    }
  }
  Object.setPrototypeOf(RelayResponse.prototype, app.response);
  app.response = RelayResponse.prototype as unknown as Express['response'];
  const classes = {
    IncomingMessage: RelayRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: RelayResponse as typeof http.ServerResponse,
  };
  messageClasses.set(app, classes);
  return classes;
}

const refuse = (status: number, code: string, message: string) =>
  new RelayError({ status, type: 'invalid_request_error', code, message });

/** What Node's own handler does (node/lib/_http_server.js socketOnError), with a JSON body. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, options: HttpServerOptions): void {
  // Node's internal: the response under way on this socket, if any. Bytes of ours in the
  // middle of one would corrupt it; then the socket is only closed.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  writeSocketError(socket, clientErrorAnswer(error, options));
}

function clientErrorAnswer(error: NodeJS.ErrnoException, options: HttpServerOptions): RelayError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return refuse(
        408,
        'request_timeout',
        `The request was not received in time: headers within ${options.headersTimeoutMs} ms, the whole request within ${options.requestTimeoutMs} ms.`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return refuse(431, 'headers_too_large', 'The request headers are too large.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return refuse(413, 'request_too_large', 'The chunk extensions of the request body are too large.');
    default:
      return refuse(400, 'invalid_http', 'The request is not valid HTTP/1.1.');
  }
}
