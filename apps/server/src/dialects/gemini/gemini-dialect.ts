import { GEMINI_METHODS, type ChatCompletion } from '@chat-relay/contract';
import { ChatToGeminiStream, convertChatToGenerateContent, notFound, toGeminiError, type RelayError } from '@chat-relay/wire';
import type { CallerDialect, StreamFraming } from '../../pipeline/caller-dialect';
import { sseData } from '../../pipeline/stream/sse';

/** A model method the relay does not serve (`{model}:predictLongRunning`), as Google answers it: 404 NOT_FOUND. */
export const unknownGeminiMethod = (target: string) =>
  notFound('unknown_method', `Method not found: '${target}' names no method the relay serves; use {model}:${GEMINI_METHODS.join(', {model}:')}.`);

export interface GeminiDialectOptions {
  /** `thinkingConfig.includeThoughts`: a bridged answer's reasoning goes back as thought parts. */
  includeThoughts: boolean;
  /** `?alt=sse`: server-sent events, as Google's SDKs ask; otherwise a streamed JSON array. */
  sse: boolean;
}

const errorJson = (error: RelayError): string => JSON.stringify(toGeminiError(error).body);

/** `data:` events, no end marker; a failure after the start is one more `data:` event holding Google's error object. */
const SSE_FRAMING: StreamFraming = { done: '', error: (error) => sseData(errorJson(error)) };

/**
 * Google's stream without `alt=sse`: one JSON array written as it grows (`[` the first answer,
 * `,\r\n` and the next …, `]`), a failure after the start its last element, then the `]`. Built
 * per stream: it remembers whether the array is open.
 */
function jsonArrayFraming(): StreamFraming {
  let open = false;
  const separator = (): string => {
    const written = open ? ',\r\n' : '[';
    open = true;
    return written;
  };
  return {
    get done() {
      return open ? ']' : '[]';
    },
    frame: (json) => `${separator()}${json}`,
    error: (error) => `${separator()}${errorJson(error)}]`,
  };
}

/**
 * The Gemini API as the caller's dialect, for one request: the stream framed as SSE or as a JSON
 * array (see above) — a failure after the start as Google's error object, which Google's SDKs
 * raise — and a hub answer bridged into a GenerateContentResponse or its chunks.
 */
export function geminiDialect({ includeThoughts, sse }: GeminiDialectOptions): CallerDialect {
  return {
    name: 'gemini',
    framing: sse ? SSE_FRAMING : jsonArrayFraming(),
    bridge: {
      // The body an upstream adapter's convertResponse built: a chat.completion by construction.
      completion: (body, publicModel) => convertChatToGenerateContent({ completion: body as ChatCompletion, publicModel, includeThoughts }),
      stream: (publicModel) => new ChatToGeminiStream({ publicModel, includeThoughts }),
    },
  };
}
