import type { ChunkTransformer } from '../hub/chunk-transformer';
import type { StreamStep } from '../hub/upstream-adapter';
import { readHubChunk } from '../hub/read-hub-chunk';
import { isJsonObject, isNumber, type JsonObject } from '../json/json-checks';

type CompletionFinishReason = 'stop' | 'length' | 'content_filter';

/** `chatcmpl-x` → `cmpl-x`; an id of another form gets the prefix in front (`msg_x` → `cmpl-msg_x`). */
export const completionIdOf = (chatId: unknown): string => `cmpl-${String(chatId ?? '').replace(/^chatcmpl-/, '')}`;

/** A completion stops for length, a content filter, or anything else (a chat turn's end) — `stop`. */
function finishReasonOf(reason: unknown): CompletionFinishReason | null {
  if (reason === null || reason === undefined) return null;
  return reason === 'length' || reason === 'content_filter' ? reason : 'stop';
}

const textOf = (holder: unknown): string => (isJsonObject(holder) && typeof holder['content'] === 'string' ? holder['content'] : '');

const indexOf = (choice: JsonObject, position: number): number => (isNumber(choice['index']) ? choice['index'] : position);

/**
 * A hub `chat.completion` (from a bridged channel) → a `text_completion`: each choice's message
 * text as `text`, no log probabilities, the same usage.
 */
export function convertChatToCompletion(chat: JsonObject): JsonObject {
  const choices = (Array.isArray(chat['choices']) ? chat['choices'] : []).filter(isJsonObject).map((choice, position) => ({
    text: textOf(choice['message']),
    index: indexOf(choice, position),
    logprobs: null,
    finish_reason: finishReasonOf(choice['finish_reason']) ?? 'stop',
  }));
  return {
    id: completionIdOf(chat['id']),
    object: 'text_completion',
    created: chat['created'],
    model: chat['model'],
    choices,
    ...(isJsonObject(chat['usage']) ? { usage: chat['usage'] } : {}),
  };
}

/**
 * The second stage of a bridged completions stream: hub chunks → `text_completion` chunks. A
 * chunk with text or a finish reason becomes one chunk with those choices; the usage chunk (the
 * provider stage sends it only when the caller asked) stays a `choices: []` chunk with usage;
 * chunks with neither (the opening role delta) send nothing.
 */
export class ChatToCompletionStream implements ChunkTransformer {
  transform(chunkJson: string): StreamStep[] {
    const read = readHubChunk(chunkJson);
    if (read.error) return [{ kind: 'error', error: read.error }];
    const { chunk } = read;
    const choices = (Array.isArray(chunk['choices']) ? chunk['choices'] : []).filter(isJsonObject).flatMap((choice, position) => {
      const text = textOf(choice['delta']);
      const finishReason = finishReasonOf(choice['finish_reason']);
      return text === '' && finishReason === null ? [] : [{ text, index: indexOf(choice, position), logprobs: null, finish_reason: finishReason }];
    });
    const usage = isJsonObject(chunk['usage']) ? chunk['usage'] : undefined;
    if (choices.length === 0 && !usage) return [];
    const completion = {
      id: completionIdOf(chunk['id']),
      object: 'text_completion',
      created: chunk['created'],
      model: chunk['model'],
      choices,
      ...(usage ? { usage } : {}),
    };
    return [{ kind: 'chunk', json: JSON.stringify(completion) }];
  }

  finish(): StreamStep[] {
    return [];
  }
}
