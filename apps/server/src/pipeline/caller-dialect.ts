import type { ChunkTransformer, RelayError } from '@chat-relay/wire';
import { SSE_DONE, sseError } from './stream/sse';

/** How a dialect ends its streams: the marker after a clean end, and a failure after the start. */
export interface StreamFraming {
  /** Written after the last event of a clean end (read once, then); '' when the dialect has no end marker. */
  readonly done: string;
  error(error: RelayError): string;
  /** Each event as written, with its SSE event name if it has one; SSE (`data:`, or `event:` + `data:` for named events) when absent. */
  frame?(json: string, event?: string): string;
  /**
   * `latin1`: the frames are bytes (AWS's binary event stream), one character per byte, and are
   * written as such; UTF-8 text when absent.
   */
  readonly encoding?: 'latin1';
}

/**
 * The dialect the caller speaks, as the pipeline needs it: how its stream is framed and, for a
 * dialect other than the hub's, how a hub answer becomes its answer. Requests are converted by
 * the route before they reach the pipeline.
 */
export interface CallerDialect {
  name: 'openai' | 'anthropic' | 'gemini';
  framing: StreamFraming;
  /** Absent for Chat Completions: the hub's answer is the caller's answer. */
  bridge?: {
    /** A hub `chat.completion` → the caller's answer body. */
    completion(body: Record<string, unknown>, publicModel: string): Record<string, unknown>;
    /** A fresh transformer for one streamed answer: hub chunks → the caller's events. */
    stream(publicModel: string): ChunkTransformer;
  };
}

/** OpenAI Chat Completions, the hub itself. */
export const chatCompletionsDialect: CallerDialect = {
  name: 'openai',
  framing: { done: SSE_DONE, error: (error) => sseError(error.toBody().error) },
};
