import type { ChatCompletion } from '@chat-relay/contract';
import { ChatToMessagesStream, convertChatToMessage, encodeAwsEvent, encodeAwsException, toAnthropicError, type RelayError } from '@chat-relay/wire';
import { performance } from 'node:perf_hooks';
import type { CallerDialect, StreamFraming } from '../../pipeline/caller-dialect';
import { sseEvent } from '../../pipeline/stream/sse';

/**
 * Anthropic's Messages API as the caller's dialect: named events with no end marker, a failure
 * after the start as one `error` event, and a hub answer bridged into a Message or its events.
 */
export const anthropicMessagesDialect: CallerDialect = {
  name: 'anthropic',
  framing: {
    done: '',
    error: (error) => sseEvent('error', JSON.stringify(toAnthropicError(error).body)),
  },
  bridge: {
    // The body an upstream adapter's convertResponse built: a chat.completion by construction.
    completion: (body, publicModel) => convertChatToMessage({ completion: body as ChatCompletion, publicModel }),
    stream: (publicModel) => new ChatToMessagesStream({ publicModel }),
  },
};

/**
 * Claude on Amazon Bedrock as the caller's dialect (Claude Code in Bedrock mode): the Messages
 * answers, a stream framed as AWS's event stream (`application/vnd.amazon.eventstream`). Each
 * Anthropic event is one `chunk` event `{"bytes": base64(event JSON)}`, the last (`message_stop`)
 * with `amazon-bedrock-invocationMetrics`; a failure after the start is an exception message
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html).
 * Built per stream: the metrics count its tokens and time.
 */
export function bedrockMessagesDialect(): CallerDialect {
  return { ...anthropicMessagesDialect, framing: bedrockEventStreamFraming() };
}

function bedrockEventStreamFraming(): StreamFraming {
  const startedAt = performance.now();
  let firstByteLatency: number | undefined;
  let inputTokenCount = 0;
  let outputTokenCount = 0;
  const chunk = (json: string): string => latin1(encodeAwsEvent('chunk', `{"bytes":"${Buffer.from(json).toString('base64')}"}`));
  return {
    done: '',
    encoding: 'latin1',
    error: (error) => latin1(encodeAwsException(bedrockStreamException(error), error.message)),
    frame: (json, event) => {
      firstByteLatency ??= Math.round(performance.now() - startedAt);
      // Only the events that carry usage, and the last one, are read.
      const type = event ?? (/^\{\s*"type"\s*:\s*"message_(?:start|delta|stop)"/.test(json) ? (JSON.parse(json) as { type: string }).type : undefined);
      if (type === 'message_start') {
        const usage = (JSON.parse(json) as { message?: { usage?: { input_tokens?: number } } }).message?.usage;
        inputTokenCount = usage?.input_tokens ?? 0;
      } else if (type === 'message_delta') {
        const usage = (JSON.parse(json) as { usage?: { input_tokens?: number | null; output_tokens?: number } }).usage;
        outputTokenCount = usage?.output_tokens ?? outputTokenCount;
        if (typeof usage?.input_tokens === 'number') inputTokenCount = usage.input_tokens;
      } else if (type === 'message_stop') {
        const metrics = { inputTokenCount, outputTokenCount, invocationLatency: Math.round(performance.now() - startedAt), firstByteLatency };
        const stop = JSON.parse(json) as Record<string, unknown>;
        return chunk(JSON.stringify({ ...stop, 'amazon-bedrock-invocationMetrics': metrics }));
      }
      return chunk(json);
    },
  };
}

/** Bytes as the pump's text: one character per byte (StreamFraming.encoding). */
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** The ResponseStream member a failure after the start is told as (the exceptions InvokeModelWithResponseStream documents). */
function bedrockStreamException(error: RelayError): string {
  if (error.status === 429) return 'throttlingException';
  if (error.status === 503 || error.status === 529) return 'serviceUnavailableException';
  if (error.status === 408 || error.status === 504) return 'modelTimeoutException';
  if (error.status >= 400 && error.status < 500) return 'validationException';
  if (error.status === 500) return 'internalServerException';
  return 'modelStreamErrorException';
}
