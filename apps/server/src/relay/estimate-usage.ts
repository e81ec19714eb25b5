import type { ChatCompletionRequest } from '@chat-relay/contract';

// About four characters a token for English text: a stop-gap until a real tokenizer counts
// (the usage log marks such rows `usage_estimated`).
const CHARS_PER_TOKEN = 4;

export const estimateTokensFromChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

export function estimatePromptTokens(request: ChatCompletionRequest): number {
  return estimateTokensFromChars(JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length);
}
