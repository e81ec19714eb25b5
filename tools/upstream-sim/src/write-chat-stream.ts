import type { ServerResponse } from 'node:http';
import type { ChatCompletionChunk, Completion } from '@chat-relay/contract';
import { clampGoodFrames, writeEventStream, type StreamOptions } from './write-event-stream';

export type { StreamFault, StreamOptions } from './write-event-stream';

export const streamErrorEvent =
  'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}\n\n';

/**
 * Writes `chunks` as server-sent events, each flushed on its own, `latencyMsPerToken` apart,
 * then `data: [DONE]` — or plays `fault` after the role chunk and two tokens (a cut) or two
 * chunks (the other faults). Legacy `text_completion` chunks are framed the same way.
 */
export function writeChatStream(
  res: ServerResponse,
  chunks: readonly ChatCompletionChunk[] | readonly Completion[],
  options: StreamOptions,
): Promise<void> {
  const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  return writeEventStream(
    res,
    {
      frames,
      goodFramesBeforeFault: (fault) => clampGoodFrames(fault.kind === 'cut' ? 3 : 2, frames.length),
      endFrame: 'data: [DONE]\n\n',
      malformedFrame: 'data: {not json\n\n',
      errorFrame: streamErrorEvent,
    },
    options,
  );
}
