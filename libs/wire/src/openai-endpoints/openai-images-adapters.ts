import { z } from 'zod';
import type { EndpointAdapter, EndpointAnswer, EndpointUsage, MultipartRequest } from '../hub/endpoint-adapter';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import { countOf, malformedAnswer, NO_USAGE, openAiJsonPassthrough, readJsonObject, type JsonRequest } from './endpoint-common';
import { fieldOf, openAiMultipartPassthrough, refuseStream } from './multipart-passthrough';

/** What prices an image request: the model it names, and the quality and size it asked for. */
export interface ImageRequestFacts {
  model: string;
  quality?: string | null;
  size?: string | null;
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * How the images are priced, `quality/size`, with OpenAI's defaults where the request says
 * nothing: dall-e-2 has one quality, so its size alone (1024x1024 by default); dall-e-3 is
 * `standard/1024x1024` by default; gpt-image models say in their answer what they made, else
 * the request's values stand, `auto` where absent.
 */
export function imageUnitVariant({ model, quality, size }: ImageRequestFacts, answer: JsonObject): string {
  if (model.includes('dall-e-2')) return size ?? '1024x1024';
  if (model.includes('dall-e-3')) return `${quality ?? 'standard'}/${size ?? '1024x1024'}`;
  return `${stringOf(answer['quality']) ?? quality ?? 'auto'}/${stringOf(answer['size']) ?? size ?? 'auto'}`;
}

/** One unit per image made; the tokens gpt-image models report (text and image input, image output). */
export function imageUsage(facts: ImageRequestFacts, answer: JsonObject, images: number): EndpointUsage {
  const usage = isJsonObject(answer['usage']) ? answer['usage'] : {};
  return {
    ...NO_USAGE,
    units: images,
    unitVariant: imageUnitVariant(facts, answer),
    promptTokens: countOf(usage['input_tokens']) ?? 0,
    completionTokens: countOf(usage['output_tokens']) ?? 0,
  };
}

const ImagesAnswerSchema = z.object({ data: z.array(z.record(z.unknown())) }).passthrough();

/** An OpenAI images answer, passed through as sent (it names no model), with its usage. */
function convertImagesAnswer(text: string, facts: ImageRequestFacts): EndpointAnswer {
  const read = readJsonObject(text, 'images answer');
  if (!read.ok) return read;
  const answer = ImagesAnswerSchema.safeParse(read.json);
  if (!answer.success) return { ok: false, error: malformedAnswer('images answer') };
  return { ok: true, kind: 'json', body: read.json, text, usage: imageUsage(facts, read.json, answer.data.data.length) };
}

/** `/images/generations` on an OpenAI channel: passed through. */
export const openAiImageGenerationsAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'images',
  buildRequest: (args) => {
    refuseStream(args.request['stream'], '/v1/images/generations');
    return openAiJsonPassthrough('images/generations', args);
  },
  convertResponse: (text, { request, publicModel }) =>
    convertImagesAnswer(text, { model: publicModel, quality: stringOf(request['quality']), size: stringOf(request['size']) }),
  mapErrorResponse: mapOpenAiErrorResponse,
};

/** `/images/edits` on an OpenAI channel: the form passed through, images and mask in their own fields. */
export const openAiImageEditsAdapter: EndpointAdapter<MultipartRequest> = {
  endpoint: 'images',
  buildRequest: (args) => {
    refuseStream(fieldOf(args.request, 'stream'), '/v1/images/edits');
    return openAiMultipartPassthrough('images/edits', args);
  },
  convertResponse: (text, { request, publicModel }) =>
    convertImagesAnswer(text, { model: publicModel, quality: fieldOf(request, 'quality'), size: fieldOf(request, 'size') }),
  mapErrorResponse: mapOpenAiErrorResponse,
};
