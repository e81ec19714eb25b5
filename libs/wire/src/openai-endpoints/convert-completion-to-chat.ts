import { ChatCompletionRequestSchema, CompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { invalidRequest } from '../errors/relay-error';
import { parseEndpointRequest, type JsonRequest } from './endpoint-common';

/** OpenAI's default `max_tokens` on `/completions` (chat has none). */
export const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

/** Read here, and not carried into the chat request as they are. */
const CONVERTED = new Set(['model', 'prompt', 'max_tokens', 'suffix', 'echo', 'logprobs', 'best_of', 'logit_bias']);

const unsupported = (param: string, provider: string, why: string) =>
  invalidRequest(`'${param}' cannot be sent to ${provider} channels on /v1/completions: ${why}.`, param, 'unsupported_parameter');

/** The one text prompt, or a 400 naming `prompt`: a chat turn holds one text, not token ids. */
function promptText(prompt: unknown, provider: string): string {
  const only = Array.isArray(prompt) && prompt.length === 1 ? prompt[0] : prompt;
  if (typeof only === 'string') return only;
  const tokenIds = Array.isArray(only) && only.every((item) => typeof item === 'number' || Array.isArray(item));
  throw unsupported(
    'prompt',
    provider,
    tokenIds ? 'token ids belong to the upstream tokenizer; send text' : 'one request carries one prompt; send them one by one',
  );
}

/**
 * A legacy completion request → a chat request of one user message holding the prompt, for a
 * channel reached through the hub (Anthropic, Gemini). Sampling, `n`, `stop`, `seed`, penalties,
 * `stream`, `stream_options` and `user` are carried (the channel's converter then maps or
 * refuses them, as for chat); `max_tokens` defaults to 16 as on OpenAI. What a chat turn cannot
 * express — `suffix`, `echo`, `logprobs`, `best_of` above 1, `logit_bias`, token ids, several
 * prompts — is a 400 naming it. Unknown fields are carried too: the channel's converter names
 * the ones it cannot send.
 */
export function convertCompletionToChat(request: JsonRequest, provider: string): ChatCompletionRequest {
  const completion = parseEndpointRequest(CompletionRequestSchema, request);
  const content = promptText(completion.prompt, provider);
  if (completion.suffix) throw unsupported('suffix', provider, 'a chat model cannot fill in text before a suffix');
  if (completion.echo) throw unsupported('echo', provider, 'the prompt is not part of a chat answer');
  if (completion.logprobs !== null && completion.logprobs !== undefined) {
    throw unsupported('logprobs', provider, 'log probabilities are not returned');
  }
  if ((completion.best_of ?? 1) > 1) throw unsupported('best_of', provider, 'the channel returns the completions it makes, it does not rank them');
  if (completion.logit_bias && Object.keys(completion.logit_bias).length > 0) {
    throw unsupported('logit_bias', provider, 'token biasing needs the upstream token ids');
  }
  const maxTokens = completion.max_tokens ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
  if (maxTokens < 1) throw invalidRequest(`'max_tokens' must be at least 1 on ${provider} channels.`, 'max_tokens', 'unsupported_parameter');

  const carried = Object.fromEntries(Object.entries(completion).filter(([field]) => !CONVERTED.has(field)));
  const chat = { ...carried, model: completion.model, messages: [{ role: 'user', content }], max_tokens: maxTokens };
  return parseEndpointRequest(ChatCompletionRequestSchema, chat);
}
