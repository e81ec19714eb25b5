import type { Express } from 'express';
import { ServerResponse, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Logger } from '../../../logger';
import { requestInProcess } from './in-process-request';
import { ResponsesSocket } from './responses-socket';

export interface ResponsesWebSocketOptions {
  /** RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS: no frame and no response under way for this long closes the socket. */
  idleTimeoutMs: number;
  /** RELAY_RESPONSES_WS_MAX_AGE_MS: a socket is closed this long after it opened (once its responses end). */
  maxAgeMs: number;
  /** The largest frame taken (RELAY_MAX_BODY_BYTES, as for a POST body). */
  maxFrameBytes: number;
  logger: Logger;
}

/** An upgrade the app may accept once the caller is authenticated (set only by `attach`'s listener). */
const pendingUpgrades = new WeakMap<IncomingMessage, () => void>();

/**
 * `GET /v1/responses` with `Upgrade: websocket` on the relay's own port. Every upgrade request
 * goes through the app like any request (an answer written on its socket, then closed), so a
 * refused key gets the usual JSON error and status and no 101; the route accepts it only after
 * authentication and the token's address check (`acceptResponsesWebSocket`, a route).
 */
export class ResponsesWebSockets {
  /** Made at the first upgrade: `ws` is required then, not at start (~1.2 MB of heap a relay without WebSocket callers never needs). */
  private wss: WebSocketServer | undefined;
  private readonly sockets = new Set<ResponsesSocket>();
  private draining = false;

  constructor(private readonly options: ResponsesWebSocketOptions) {}

  private server(): WebSocketServer {
    if (!this.wss) {
      const { WebSocketServer: Server } = require('ws') as typeof import('ws');
      this.wss = new Server({ noServer: true, maxPayload: this.options.maxFrameBytes, clientTracking: false });
    }
    return this.wss;
  }

  /** Open sockets. */
  get size(): number {
    return this.sockets.size;
  }

  attach(server: Server, app: Express): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(server, app, req, socket, head));
  }

  /** Shutdown: no new sockets; idle ones closed now (1001), the rest once their responses end. */
  drain(): void {
    this.draining = true;
    for (const socket of [...this.sockets]) socket.drain();
  }

  /** After the shutdown's last wait: whatever is still open is dropped. */
  terminateAll(): void {
    for (const socket of [...this.sockets]) socket.terminate();
  }

  private upgrade(server: Server, app: Express, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!isWebSocketUpgrade(req)) return replayWithoutUpgrade(server, req, socket, head);
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    // An answer other than the upgrade (a refusal, a 404, another route's answer) ends the socket.
    res.once('finish', () => {
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
    if (!this.draining) {
      pendingUpgrades.set(req, () => {
        res.detachSocket(socket as Socket);
        this.server().handleUpgrade(req, socket, head, (ws) => {
          const headers = forwardedHeaders(req.headers);
          const remoteAddress = req.socket.remoteAddress;
          const session: ResponsesSocket = new ResponsesSocket(ws, {
            dispatch: (body) => requestInProcess(server, { path: '/v1/responses', headers, body, remoteAddress }),
            idleTimeoutMs: this.options.idleTimeoutMs,
            maxAgeMs: this.options.maxAgeMs,
            logger: this.options.logger,
            onClosed: () => this.sockets.delete(session),
          });
          this.sockets.add(session);
          // A socket lives for many responses (each logged as a request): its opening is worth a line of its own.
          this.options.logger.info({ remoteAddress, open: this.sockets.size }, 'Responses WebSocket opened');
        });
      });
    }
    app(req, res);
  }
}

/** The upgrade waiting on `req`'s authentication, when it is one (see routes/responses-websocket.route.ts): calling it upgrades. */
export function pendingUpgradeOf(req: IncomingMessage): (() => void) | undefined {
  const accept = pendingUpgrades.get(req);
  if (!accept) return undefined;
  return () => {
    pendingUpgrades.delete(req);
    accept();
  };
}

const isWebSocketUpgrade = (req: IncomingMessage): boolean => req.method === 'GET' && req.headers.upgrade?.toLowerCase() === 'websocket';

/** Header names and `Connection` tokens that ask for another protocol (HTTP/2's `h2c` adds HTTP2-Settings). */
const UPGRADE_ONLY = /^(upgrade|http2-settings)$/i;

/**
 * Any other upgrade (`curl --http2` asks for `h2c`, on a POST too): with a listener for upgrades,
 * Node hands every one over unparsed — body included. Served as before the listener existed: the
 * request is given back to the server without its upgrade headers, as if it had just arrived.
 */
function replayWithoutUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    if (UPGRADE_ONLY.test(name)) continue;
    if (name.toLowerCase() === 'connection') {
      const kept = value.split(',').map((token) => token.trim()).filter((token) => token !== '' && !UPGRADE_ONLY.test(token));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

/** Headers of the handshake that describe the transport, not the caller: not repeated on each response's request. */
const TRANSPORT_HEADERS = new Set(['connection', 'upgrade', 'content-length', 'content-type', 'transfer-encoding', 'keep-alive', 'expect', 'te', 'trailer', 'x-request-id']);

/** What each `response.create` is sent with: the handshake's headers (the key, Codex's session headers), less the transport's. */
function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const forwarded: OutgoingHttpHeaders = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || TRANSPORT_HEADERS.has(name) || name.startsWith('sec-websocket-')) continue;
    forwarded[name] = value;
  }
  return forwarded;
}
