import type { ChatCompletion } from '@chat-relay/contract';
import { ChatToGeminiStream, convertChatToGenerateContent, notFound, toGeminiError } from '@chat-relay/wire';
import type { CallerDialect } from './caller-dialect';
import { sseData } from './sse';

/** A model method the relay does not serve (`{model}:embedContent`), as Google answers it: 404 NOT_FOUND. */
export const unknownGeminiMethod = (target: string) =>
  notFound('unknown_method', `Method not found: '${target}' names no method the relay serves; use {model}:generateContent or {model}:streamGenerateContent.`);

export interface GeminiDialectOptions {
  /** `thinkingConfig.includeThoughts`: a bridged answer's reasoning goes back as thought parts. */
  includeThoughts: boolean;
}

/**
 * The Gemini API as the caller's dialect, for one request: `data:` events with no end marker, a
 * failure after the start as one `data:` event holding Google's error object (which Google's SDKs
 * raise), and a hub answer bridged into a GenerateContentResponse or its chunks.
 */
export function geminiDialect({ includeThoughts }: GeminiDialectOptions): CallerDialect {
  return {
    name: 'gemini',
    framing: {
      done: '',
      error: (error) => sseData(JSON.stringify(toGeminiError(error).body)),
    },
    bridge: {
      // The body an upstream adapter's convertResponse built: a chat.completion by construction.
      completion: (body, publicModel) => convertChatToGenerateContent({ completion: body as ChatCompletion, publicModel, includeThoughts }),
      stream: (publicModel) => new ChatToGeminiStream({ publicModel, includeThoughts }),
    },
  };
}
