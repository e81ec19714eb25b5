import type { ServerResponse } from 'node:http';
import { clampGoodFrames, writeEventStream, type StreamOptions } from '../write-event-stream';
import type { AnthropicErrorBody, AnthropicStreamEvent } from './anthropic-api';
import { anthropicOverloaded } from './anthropic-error';

/** Anthropic frames every event with its type on an `event:` line. */
export function anthropicFrame(event: AnthropicStreamEvent | AnthropicErrorBody): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Faults land after `message_start`, the first block start, the `ping` and one delta. */
const framesBeforeFault = 4;

/**
 * Writes the events as Anthropic does (no `[DONE]`: `message_stop` ends the stream); a
 * `stream-error` fault ends with `event: error` carrying an `overloaded_error`.
 */
export function writeAnthropicStream(
  res: ServerResponse,
  events: readonly AnthropicStreamEvent[],
  options: StreamOptions,
): Promise<void> {
  const frames = events.map(anthropicFrame);
  return writeEventStream(
    res,
    {
      frames,
      goodFramesBeforeFault: () => clampGoodFrames(framesBeforeFault, frames.length),
      malformedFrame: 'event: content_block_delta\ndata: {not json\n\n',
      errorFrame: anthropicFrame(anthropicOverloaded),
    },
    options,
  );
}
