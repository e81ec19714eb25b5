import type { ServerResponse } from 'node:http';
import { clampGoodFrames, writeEventStream, type StreamOptions } from '../write-event-stream';
import type { GenerateContentResponse } from './gemini-api';
import { geminiOverloaded } from './gemini-error';

/** Faults land after the first event. */
const framesBeforeFault = 1;

/**
 * Writes the responses as `streamGenerateContent?alt=sse` does: `data:` lines only, no
 * `event:` names and no `[DONE]`; a `stream-error` fault ends with an `{error: …}` event.
 */
export function writeGeminiStream(
  res: ServerResponse,
  events: readonly GenerateContentResponse[],
  options: StreamOptions,
): Promise<void> {
  const frames = events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`);
  return writeEventStream(
    res,
    {
      frames,
      goodFramesBeforeFault: () => clampGoodFrames(framesBeforeFault, frames.length),
      malformedFrame: 'data: {not json\r\n\r\n',
      errorFrame: `data: ${JSON.stringify(geminiOverloaded)}\r\n\r\n`,
    },
    options,
  );
}
