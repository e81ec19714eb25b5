import { ModerationResponseSchema } from '@chat-relay/contract';
import { upstreamError } from '../errors/relay-error';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import { isJsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import {
  countOf,
  LARGE_ANSWER_BYTES,
  largePassthrough,
  malformedAnswer,
  NO_USAGE,
  openAiJsonPassthrough,
  readJsonObject,
  tailObject,
  textsOf,
  uncountedUsage,
  withPublicModel,
  type JsonRequest,
} from './endpoint-common';

/**
 * `/embeddings` on an OpenAI-compatible channel: passed through, `model` rewritten. A server
 * that reports no tokens leaves the inputs for the relay to count.
 */
export const openAiEmbeddingsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'embeddings',
  buildRequest: (args) => openAiJsonPassthrough('embeddings', args),
  // Vectors are most of a large answer: its usage is read from its end instead of parsing all of it.
  convertLargeResponse: (bytes, { publicModel }) => {
    if (bytes.length <= LARGE_ANSWER_BYTES || !bytes.includes('"data"')) return undefined;
    const promptTokens = countOf(tailObject(bytes, 'usage')?.['prompt_tokens']);
    return promptTokens === undefined ? undefined : largePassthrough(bytes, publicModel, 'embeddings answer', { ...NO_USAGE, promptTokens });
  },
  convertResponse: (text, { request, publicModel }) => {
    const read = readJsonObject(text, 'embeddings answer');
    if (!read.ok) return read;
    if (!Array.isArray(read.json['data'])) return { ok: false, error: malformedAnswer('embeddings answer') };
    const usage = read.json['usage'];
    const promptTokens = isJsonObject(usage) ? countOf(usage['prompt_tokens']) : undefined;
    return {
      ok: true,
      kind: 'json',
      ...withPublicModel(text, read.json, publicModel),
      usage: promptTokens !== undefined ? { ...NO_USAGE, promptTokens } : uncountedUsage(textsOf(request['input']).join('\n')),
    };
  },
  mapErrorResponse: mapOpenAiErrorResponse,
};

/** The text a moderation classifies: a string, strings, or the text parts beside images. */
export function moderationTextOf(input: unknown): string {
  if (!Array.isArray(input)) return textsOf(input).join('\n');
  return input
    .map((item) => (typeof item === 'string' ? item : isJsonObject(item) && typeof item['text'] === 'string' ? item['text'] : undefined))
    .filter((text): text is string => text !== undefined)
    .join('\n');
}

/**
 * `/moderations` on an OpenAI channel: passed through, `model` rewritten. OpenAI reports no
 * tokens for it: the relay counts the input text (images are not counted).
 */
export const openAiModerationsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'moderations',
  buildRequest: (args) => openAiJsonPassthrough('moderations', args),
  convertResponse: (text, { request, publicModel }) => {
    const read = readJsonObject(text, 'moderation answer');
    if (!read.ok) return read;
    if (!ModerationResponseSchema.safeParse(read.json).success) return { ok: false, error: malformedAnswer('moderation answer') };
    return { ok: true, kind: 'json', ...withPublicModel(text, read.json, publicModel), usage: uncountedUsage(moderationTextOf(request['input'])) };
  },
  mapErrorResponse: mapOpenAiErrorResponse,
};

/**
 * `/audio/speech` on an OpenAI channel: the audio bytes stream back as they come; what it costs
 * is known from the request alone — the characters (code points) of `input`.
 */
export const openAiSpeechAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'audio_speech',
  buildRequest: (args) => openAiJsonPassthrough('audio/speech', args),
  binary: {
    usage: (request) => ({ ...NO_USAGE, units: typeof request['input'] === 'string' ? [...request['input']].length : 0 }),
  },
  // Never called for a binary answer: the relay passes the bytes through.
  convertResponse: () => ({ ok: false, error: upstreamError('Speech answers are audio, passed through as they come.', 'bad_response') }),
  mapErrorResponse: mapOpenAiErrorResponse,
};
