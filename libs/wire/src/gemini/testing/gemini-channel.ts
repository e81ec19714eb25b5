import type { ChatCompletionRequest } from '@chat-relay/contract';
import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import type { GenerateContentRequest } from '../gemini-api';
import { geminiAdapter } from '../upstream/gemini-adapter';
import type { StreamChunk } from './gemini-fixtures';

export const GEMINI_CHANNEL = { baseUrl: 'https://generativelanguage.googleapis.com/v1beta' };

/** What the adapter would send for an OpenAI request (validated by the contract first, as the route does). */
export function buildGeminiCall(fields: Record<string, unknown>, upstreamModel: string) {
  const request: ChatCompletionRequest = ChatCompletionRequestSchema.parse({ model: 'my-gemini', ...fields });
  const built = geminiAdapter.buildRequest({ channel: GEMINI_CHANNEL, key: 'AIzaTestKey', request, upstreamModel });
  return { ...built, json: JSON.parse(built.body.toString()) as GenerateContentRequest };
}

export interface AccumulatedCall {
  id: string;
  name: string;
  arguments: string;
  deltas: number;
}

/** Tool calls put together from streamed chunks the way OpenAI SDKs do it: by `index`. */
export function accumulateToolCalls(chunks: readonly StreamChunk[]): AccumulatedCall[] {
  const calls: AccumulatedCall[] = [];
  for (const chunk of chunks) {
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = (calls[delta.index] ??= { id: '', name: '', arguments: '', deltas: 0 });
      call.id += delta.id ?? '';
      call.name += delta.function?.name ?? '';
      call.arguments += delta.function?.arguments ?? '';
      call.deltas += 1;
    }
  }
  return calls;
}

/** The content an SDK would accumulate: null until a string arrives. */
export function accumulateContent(chunks: readonly StreamChunk[]): string | null {
  let content: string | null = null;
  for (const chunk of chunks) {
    const delta = chunk.choices[0]?.delta;
    if (typeof delta?.content === 'string') content = (content ?? '') + delta.content;
  }
  return content;
}
