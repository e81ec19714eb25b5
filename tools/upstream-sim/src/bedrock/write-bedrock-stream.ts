import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeAwsEvent, encodeAwsException } from '@chat-relay/wire';
import { signalOnClose, writeFlushed } from '../http-io';
import { clampGoodFrames, type StreamOptions } from '../write-event-stream';
import type { AnthropicStreamEvent } from '../anthropic/anthropic-api';

/** Bedrock's count of a Claude answer, on its last chunk (`amazon-bedrock-invocationMetrics`). */
export interface InvocationMetrics {
  inputTokenCount: number;
  outputTokenCount: number;
  invocationLatency: number;
  firstByteLatency: number;
  cacheReadInputTokenCount?: number;
  cacheWriteInputTokenCount?: number;
}

/** What a `stream-error` fault sends mid-stream: the exception Bedrock throttles a stream with. */
export const throttledMessage = 'Too many tokens, please wait before trying again.';

/** Faults land after message_start, the first block's start and one delta. */
const framesBeforeFault = 3;

/**
 * One Anthropic event as InvokeModelWithResponseStream frames it: a `chunk` event message whose
 * payload is `{"bytes": <base64 of the event's JSON>, "p": <padding>}` (the padding Bedrock adds so
 * sizes do not tell the text: test-fixtures/bedrock/invoke-stream-claude-sonnet-4-5.chunks.b64).
 */
export function bedrockChunk(event: object): Uint8Array {
  const json = JSON.stringify(event);
  const padding = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.slice(0, 2 + (json.length % 50));
  return encodeAwsEvent('chunk', JSON.stringify({ bytes: Buffer.from(json, 'utf8').toString('base64'), p: padding }));
}

/** The frames of a Claude stream on Bedrock: no `ping`, and the metrics on `message_stop`. */
export function bedrockFrames(events: readonly AnthropicStreamEvent[], metrics: InvocationMetrics): Uint8Array[] {
  return events
    .filter((event) => event.type !== 'ping')
    .map((event) => bedrockChunk(event.type === 'message_stop' ? { ...event, 'amazon-bedrock-invocationMetrics': metrics } : event));
}

/**
 * Writes the frames as Bedrock does (`application/vnd.amazon.eventstream`), each handed to the
 * socket on its own, `latencyMsPerToken` apart; a fault plays after the first few: `cut` drops the
 * connection, `malformed` sends a chunk whose bytes are not JSON, `stream-error` a
 * `throttlingException` message.
 */
export async function writeBedrockStream(res: ServerResponse, frames: readonly Uint8Array[], options: StreamOptions): Promise<void> {
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-bedrock-content-type': 'application/json',
    'x-amzn-requestid': randomUUID(),
  });
  res.flushHeaders();
  const signal = signalOnClose(res);
  const good = options.fault ? clampGoodFrames(framesBeforeFault, frames.length) : frames.length;
  for (const [index, frame] of frames.slice(0, good).entries()) {
    if (signal.aborted) return;
    if (index > 0 && options.latencyMsPerToken > 0) await sleep(options.latencyMsPerToken, undefined, { signal }).catch(() => undefined);
    await writeFlushed(res, Buffer.from(frame), signal);
  }
  if (signal.aborted) return;
  switch (options.fault?.kind) {
    case undefined:
      res.end();
      return;
    case 'cut':
      res.destroy();
      return;
    case 'malformed':
      res.end(Buffer.from(encodeAwsEvent('chunk', JSON.stringify({ bytes: Buffer.from('{not json').toString('base64') }))));
      return;
    case 'stream-error':
      res.end(Buffer.from(encodeAwsException('throttlingException', throttledMessage)));
      return;
    default: {
      const unexpected: never = options.fault;
      throw new Error(`unhandled stream fault ${JSON.stringify(unexpected)}`);
    }
  }
}
