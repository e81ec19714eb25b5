import { createParser } from 'eventsource-parser';
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import type { Logger } from '../../../logger';
import { newResponseId } from '../responses-items';
import type { InProcessCall } from './in-process-request';
import { ClientEventSchema, CONNECTION_LIMIT_CODE, errorEvent, errorEventOfAnswer, socketError } from './socket-events';
import { continueFromMemory, inputItemsOf, rememberResponse, type RememberedResponse } from './socket-memory';

export interface ResponsesSocketDeps {
  /** `POST /v1/responses` with this body, made for this socket's caller through the whole relay. */
  dispatch(body: Buffer): InProcessCall;
  idleTimeoutMs: number;
  maxAgeMs: number;
  logger: Logger;
  onClosed(): void;
}

/** Past this many bytes waiting to go out, the answer is read no further until they have. */
const SEND_HIGH_WATER = 1 << 20;

type Ending = 'aged' | 'idle' | 'draining';

/** The events after which a response is the connection's last, to be continued. */
const FINISHED = new Set(['response.completed', 'response.incomplete']);

/**
 * One client's Responses WebSocket (OpenAI's WebSocket mode): each `response.create` is a
 * streamed `POST /v1/responses` through the relay — authentication, the token's policy and
 * concurrency, the one pipeline, one usage row — whose events go back as text frames. A refused
 * request is an `error` event; the socket stays open. The last response is remembered for
 * `previous_response_id` with `store: false`. Closed when idle, when too old, on shutdown.
 */
export class ResponsesSocket {
  private readonly calls = new Set<InProcessCall>();
  private last: RememberedResponse | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly ageTimer: NodeJS.Timeout;
  private ending: Ending | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly deps: ResponsesSocketDeps,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.once('close', () => this.closed());
    ws.on('error', () => ws.terminate());
    this.ageTimer = setTimeout(() => this.end('aged'), deps.maxAgeMs);
    this.armIdle();
  }

  /** Shutdown: closed now if nothing is under way, else once its responses have ended. */
  drain(): void {
    this.end('draining');
  }

  /** The last resort: the socket dropped. */
  terminate(): void {
    this.ws.terminate();
  }

  private receive(data: RawData, isBinary: boolean): void {
    this.armIdle();
    if (this.ending === 'draining') {
      void this.send(errorEvent(503, socketError('server_error', 'server_shutting_down', 'The relay is shutting down; open a new connection and retry.')));
      return;
    }
    if (isBinary) return this.refuse('Binary frames are not supported: send each event as a JSON text frame.', null, 'invalid_frame');
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawText(data));
    } catch {
      return this.refuse('The frame is not valid JSON.', null, 'invalid_json');
    }
    const event = ClientEventSchema.safeParse(parsed);
    if (!event.success) return this.refuse("Each frame must be a JSON object with a string 'type'.", 'type', 'invalid_type');
    const { type, ...body } = event.data;
    switch (type) {
      case 'response.create':
        return void this.create(body);
      case 'response.processed':
        // Codex's acknowledgement of an answer: nothing to do.
        return;
      default:
        return this.refuse(`Unsupported event type '${type}': this relay accepts 'response.create'.`, 'type', 'unsupported_event_type');
    }
  }

  private async create(body: Readonly<Record<string, unknown>>): Promise<void> {
    if (body['background'] === true) return this.refuse('background is not supported over WebSocket.', 'background', 'unsupported_parameter');
    // Always streamed (Codex sends `stream: true`, OpenAI's docs say to leave it out); `generate` is this transport's.
    const sent: Record<string, unknown> = { ...continueFromMemory(body, this.last), stream: true };
    const generate = sent['generate'];
    delete sent['generate'];
    if (generate === false) return this.warmUp(sent);
    const call = this.deps.dispatch(Buffer.from(JSON.stringify(sent)));
    this.calls.add(call);
    clearTimeout(this.idleTimer);
    try {
      const response = await call.response;
      if (response.statusCode === 200) await this.relayEvents(response, sent);
      else void this.send(errorEventOfAnswer(response.statusCode ?? 500, await textOf(response)));
    } catch (error) {
      // The socket closed first (the call was aborted), or the answer broke off.
      if (this.ws.readyState === this.ws.OPEN) {
        this.deps.logger.warn({ err: error }, 'a response over WebSocket failed before its end');
        void this.send(errorEvent(500, socketError('server_error', 'stream_interrupted', 'The response ended before it was complete.')));
      }
    } finally {
      this.calls.delete(call);
      this.settled();
    }
  }

  /** The SSE answer's events as frames, as they come; the finished response remembered. */
  private async relayEvents(response: IncomingMessage, sent: Readonly<Record<string, unknown>>): Promise<void> {
    let waiting: Promise<void> | undefined;
    const parser = createParser({
      onEvent: ({ event, data }) => {
        if (data === '[DONE]') return;
        waiting = this.send(data);
        if (event !== undefined && FINISHED.has(event)) this.rememberFinished(sent, data);
      },
    });
    const decoder = new StringDecoder('utf8');
    for await (const chunk of response) {
      parser.feed(decoder.write(chunk as Buffer));
      if (waiting) await waiting;
      waiting = undefined;
    }
  }

  private rememberFinished(sent: Readonly<Record<string, unknown>>, data: string): void {
    const finished = FinishedEventSchema.safeParse(JSON.parse(data));
    if (finished.success) this.last = rememberResponse(sent, finished.data.response);
  }

  /**
   * `generate: false` (Codex's prewarm): the request's state is kept and a response id given,
   * no model is called — so no usage row. The next request continues it by that id.
   */
  private warmUp(sent: Readonly<Record<string, unknown>>): void {
    if (typeof sent['previous_response_id'] === 'string') {
      return this.refuse('generate: false continuing a response not held by this connection is not supported; send the whole input.', 'previous_response_id', 'unsupported_parameter');
    }
    const id = newResponseId('resp');
    const model = typeof sent['model'] === 'string' ? sent['model'] : null;
    const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, output: [], error: null, incomplete_details: null, usage: null };
    void this.send(JSON.stringify({ type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress' } }));
    void this.send(JSON.stringify({ type: 'response.completed', sequence_number: 1, response: { ...response, status: 'completed' } }));
    this.last = { id, stored: false, items: inputItemsOf(sent['input']) };
  }

  private refuse(message: string, param: string | null, code: string): void {
    void this.send(errorEvent(400, socketError('invalid_request_error', code, message, param)));
  }

  /** Sends one frame; resolves once it has gone when too much is waiting (else undefined). */
  private send(frame: string): Promise<void> | undefined {
    if (this.ws.readyState !== this.ws.OPEN) return undefined;
    if (this.ws.bufferedAmount < SEND_HIGH_WATER) {
      this.ws.send(frame);
      return undefined;
    }
    return new Promise((resolve) => this.ws.send(frame, () => resolve()));
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.calls.size === 0 && !this.ending) this.idleTimer = setTimeout(() => this.end('idle'), this.deps.idleTimeoutMs);
  }

  private settled(): void {
    if (this.calls.size > 0) return;
    if (this.ending) this.closeNow(this.ending);
    else this.armIdle();
  }

  private end(reason: Ending): void {
    this.ending ??= reason;
    if (this.calls.size === 0) this.closeNow(this.ending);
  }

  /** Aged or idle: the error Codex reads as "reconnect and carry on", then a normal close. */
  private closeNow(reason: Ending): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.ageTimer);
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (reason === 'draining') return this.ws.close(1001, 'server shutting down');
    const message =
      reason === 'aged'
        ? `Responses websocket connection limit reached (${Math.round(this.deps.maxAgeMs / 60_000)} minutes). Create a new websocket connection to continue.`
        : `Responses websocket closed after ${Math.round(this.deps.idleTimeoutMs / 1000)} s without a request. Create a new websocket connection to continue.`;
    void this.send(errorEvent(400, socketError('invalid_request_error', CONNECTION_LIMIT_CODE, message)));
    this.ws.close(1000, reason === 'aged' ? 'connection age limit' : 'idle timeout');
  }

  private closed(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.ageTimer);
    for (const call of this.calls) call.abort();
    this.deps.onClosed();
  }
}

/** The id and output of a `response.completed` / `response.incomplete` event's response. */
const FinishedEventSchema = z.object({ response: z.object({ id: z.string(), output: z.array(z.unknown()).default([]) }) });

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

async function textOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
