import { ChatCompletionChunkSchema, type ChatCompletionChunk } from '@chat-relay/contract';
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { RelayApiError } from './relay-api-error';

/** One SSE line may not grow past this; a stream that does is broken or hostile. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

type StreamEvent = { kind: 'chunk'; chunk: ChatCompletionChunk } | { kind: 'done' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What one `data:` payload means: a chunk, the end, or (thrown) an error. */
function readEvent(event: EventSourceMessage, requestId: string | undefined): StreamEvent {
  if (event.data === '[DONE]') return { kind: 'done' };
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    throw RelayApiError.invalidResponse({
      code: 'invalid_chunk',
      message: `The stream sent an event that is not JSON: ${event.data.slice(0, 200)}`,
      requestId,
    });
  }
  if (isRecord(payload) && 'error' in payload) throw RelayApiError.fromStreamEvent({ payload, requestId });
  const parsed = ChatCompletionChunkSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : parsed.error.message;
    throw RelayApiError.invalidResponse({
      code: 'invalid_chunk',
      message: `The stream sent a chunk that is not a chat.completion.chunk (${where})`,
      requestId,
    });
  }
  return { kind: 'chunk', chunk: parsed.data };
}

/**
 * Turns the bytes of a `text/event-stream` answer into validated chunks. Ends at
 * `data: [DONE]`; throws `RelayApiError` on an error event, a malformed chunk, or a stream
 * that ends before `[DONE]` (`stream_truncated`).
 */
export async function* parseChatCompletionStream(args: {
  body: AsyncIterable<Uint8Array | string>;
  requestId?: string;
}): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { body, requestId } = args;
  const pending: EventSourceMessage[] = [];
  let parseFailure: ParseError | undefined;
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    // Unknown fields and bad `retry` values are ignorable by the SSE spec; an overflow is not.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') parseFailure = error;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  // One decoder for the whole stream: a UTF-8 character may be split between two packets.
  const decoder = new TextDecoder();

  for await (const bytes of body) {
    parser.feed(typeof bytes === 'string' ? bytes : decoder.decode(bytes, { stream: true }));
    if (parseFailure) {
      throw RelayApiError.invalidResponse({ code: 'invalid_chunk', message: parseFailure.message, requestId });
    }
    for (const event of pending.splice(0)) {
      const outcome = readEvent(event, requestId);
      if (outcome.kind === 'done') return;
      yield outcome.chunk;
    }
  }
  // An event without its closing blank line is incomplete (SSE spec): it is dropped, not read.
  throw RelayApiError.invalidResponse({
    code: 'stream_truncated',
    message: 'The stream ended before `data: [DONE]`; the answer is incomplete.',
    requestId,
  });
}
