import { ErrorResponseSchema, type ErrorBody } from '@chat-relay/contract';
import { z } from 'zod';

/**
 * The frames of OpenAI's Responses WebSocket mode (platform docs, "WebSocket mode" and the
 * "WebSocket events" reference): the client sends `response.create` with the fields of
 * `POST /v1/responses`; Codex also sends `response.processed` once it has handled an answer.
 * The server sends the events of the SSE stream, and a request's failure as an `error` event
 * carrying the HTTP status (`{"type":"error","status":400,"error":{...}}`, the shape Codex reads:
 * codex-rs/codex-api/src/endpoint/responses_websocket.rs, WrappedWebsocketErrorEvent).
 */
export const ClientEventSchema = z.object({ type: z.string() }).passthrough();

/** The error code Codex treats as "open a new connection and carry on" (its WEBSOCKET_CONNECTION_LIMIT_REACHED_CODE). */
export const CONNECTION_LIMIT_CODE = 'websocket_connection_limit_reached';

export type SocketError = ErrorBody;

export const socketError = (type: string, code: string | null, message: string, param: string | null = null): SocketError => ({ type, code, message, param });

/** The `error` event for a request that failed with `status`. */
export const errorEvent = (status: number, error: SocketError): string => JSON.stringify({ type: 'error', status, error });

/** A refused request's JSON answer (OpenAI's error shape) as the `error` event; anything else as a server error. */
export function errorEventOfAnswer(status: number, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const answer = ErrorResponseSchema.safeParse(parsed);
  if (answer.success) return errorEvent(status, answer.data.error);
  return errorEvent(status, socketError('server_error', null, `The relay answered ${status} without an error body.`));
}
