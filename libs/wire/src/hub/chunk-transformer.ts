import type { ResponseWebSearchCall } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { StreamStep } from './upstream-adapter';

/**
 * The second half of a bridged stream: the hub's chunks (Chat Completions `chat.completion.chunk`
 * objects, serialised, as an upstream's StreamTransformer made them) → the caller's own events.
 * Pure and stateful, one per answer.
 */
export interface ChunkTransformer {
  /** One hub chunk (JSON text) → zero or more steps in the caller's dialect. */
  transform(chunkJson: string): StreamStep[];
  /** The upstream ended its answer properly: the caller's closing events. Never called for a cut stream. */
  finish(): StreamStep[];
  /**
   * The dialect's own failure events for a stream that broke after it started (replaces the
   * framing's generic error event). Absent: the framing's error event is written.
   */
  fail?(error: RelayError): StreamStep[];
  /**
   * A web search the relay runs itself between two model calls of the answer (a Responses
   * caller's hosted web_search on a bridged channel): its events as it starts (`in_progress`, no
   * sources yet) and as it ends. Absent: the dialect has no way to show one.
   */
  hostedSearch?(item: ResponseWebSearchCall): StreamStep[];
}
