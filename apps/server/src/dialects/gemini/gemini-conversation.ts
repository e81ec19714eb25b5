import { GeminiGenerateContentRequestSchema, type GeminiGenerateContentRequest } from '@chat-relay/contract';
import { convertGenerateContentToChat } from '@chat-relay/wire';
import type { NativeConversation } from '../../pipeline/let-go-of-conversation';

/**
 * A generateContent request's conversation (`contents`), read again from the caller's bytes while
 * an answer that passed them through is awaited: the body through the route's own schema (which
 * reads proto JSON's two spellings of a field), the hub's messages through the route's own
 * conversion for the same model and method.
 */
export function geminiConversation(target: { model: string; stream: boolean }): NativeConversation {
  return {
    field: 'contents',
    parse: (rawBody) => GeminiGenerateContentRequestSchema.parse(JSON.parse(rawBody.toString('utf8'))),
    hubMessages: (body) => convertGenerateContentToChat({ body: body as GeminiGenerateContentRequest, model: target.model, stream: target.stream }).request.messages,
  };
}
