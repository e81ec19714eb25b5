import { TO_GEMINI } from './chat-to-gemini-losses';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { ImageGenerationRequestSchema, type ImageGenerationRequest } from '@chat-relay/contract';
import { z } from 'zod';
import { invalidRequest, upstreamError, type RelayError } from '../../errors/relay-error';
import type { EndpointAdapter, EndpointAnswer } from '../../hub/endpoint-adapter';
import type { JsonObject } from '../../json/json-checks';
import { trimBaseUrl } from '../../hub/native-request-body';
import { malformedAnswer, NO_USAGE, parseEndpointRequest, readJsonObject, type JsonRequest } from '../../openai-endpoints/endpoint-common';
import { convertGeminiUsage } from './convert-gemini-usage';
import { GenerateContentResponseSchema } from '../gemini-api';
import { mapGeminiErrorResponse } from './gemini-error';
import { geminiAuthHeaders } from '../../providers/provider-auth';

/** The aspect ratios every Gemini image model takes (Imagen and the gemini-*-image models alike). */
const ASPECT_RATIOS: ReadonlyArray<readonly [string, number]> = [
  ['1:1', 1],
  ['3:4', 3 / 4],
  ['4:3', 4 / 3],
  ['9:16', 9 / 16],
  ['16:9', 16 / 9],
];
/** How far a size's shape may be from the nearest supported ratio (a quarter, either way) and still be sent as it. */
const MAX_RATIO_DRIFT = Math.log(1.25);
/** Closer than this (2 %), the ratio is the size's own: OpenAI's 1792x1024 is its 16:9. */
const EXACT_RATIO = Math.log(1.02);

/** Values that ask for nothing Gemini would not do anyway. */
const DEFAULTS: Readonly<Record<string, readonly string[]>> = {
  quality: ['auto', 'standard'],
  background: ['auto', 'opaque'],
  moderation: ['auto'],
  response_format: ['b64_json'],
};

const WHY_NOT: Readonly<Record<string, string>> = {
  response_format: 'Gemini returns image bytes only, never a URL; ask for b64_json',
  quality: 'Gemini image models have no quality setting',
  style: 'Gemini image models have no style setting',
  background: 'Gemini image models make opaque images only',
  moderation: 'the safety filter level is not set through this route',
};

const unsupported = (param: string, why: string): RelayError =>
  invalidRequest(`'${param}' cannot be sent to a Gemini channel: ${why}.`, param, 'unsupported_parameter');

/**
 * An OpenAI `size` (`1792x1024`) → the supported aspect ratio nearest its shape, or a 400 naming
 * `size` when none is near. Gemini picks the resolution itself; a ratio that is not the size's
 * own is said in a warning.
 */
export function aspectRatioOf(size: string): { aspectRatio: string; warning?: Adjustment } {
  const match = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (width > 0 && height > 0) {
    const shape = Math.log(width / height);
    const [name, drift] = ASPECT_RATIOS.map(([ratio, value]) => [ratio, Math.abs(shape - Math.log(value))] as const).reduce(
      (best, next) => (next[1] < best[1] ? next : best),
    );
    if (drift <= EXACT_RATIO) return { aspectRatio: name };
    if (drift <= MAX_RATIO_DRIFT) {
      return { aspectRatio: name, warning: lossOf(TO_GEMINI.rules.imageSize, { from: size, to: name }) };
    }
  }
  const supported = ASPECT_RATIOS.map(([ratio]) => ratio).join(', ');
  throw unsupported('size', `Gemini makes images of the aspect ratios ${supported} only, and '${size}' is none of them`);
}

const isImagen = (model: string): boolean => model.startsWith('imagen-');

/** Output format and compression: Imagen writes PNG or JPEG; the gemini-*-image models PNG only. */
function outputOptionsOf(request: ImageGenerationRequest, imagen: boolean): { mimeType?: string; compressionQuality?: number } {
  const format = request.output_format ?? undefined;
  if (format && format !== 'png' && !(imagen && format === 'jpeg')) {
    throw unsupported('output_format', imagen ? 'Imagen writes png or jpeg' : 'Gemini image models write png only');
  }
  const compression = request.output_compression ?? undefined;
  if (compression !== undefined && format !== 'jpeg') throw unsupported('output_compression', 'Gemini compresses jpeg output only');
  return { ...(format ? { mimeType: `image/${format}` } : {}), ...(compression !== undefined ? { compressionQuality: compression } : {}) };
}

/** Every field is converted, a harmless default, `user` (bookkeeping), or a 400 naming it. */
function rejectInexpressible(request: JsonRequest): void {
  const converted = new Set(['model', 'prompt', 'n', 'size', 'output_format', 'output_compression', 'user']);
  for (const [field, value] of Object.entries(request)) {
    if (value === null || value === undefined || converted.has(field)) continue;
    if (typeof value === 'string' && DEFAULTS[field]?.includes(value)) continue;
    throw unsupported(field, WHY_NOT[field] ?? 'it has no Gemini counterpart');
  }
}

interface GeminiImageCall {
  method: 'predict' | 'generateContent';
  body: Record<string, unknown>;
  warnings: Adjustment[];
}

function imageCallOf(request: JsonRequest, model: string): GeminiImageCall {
  const image = parseEndpointRequest(ImageGenerationRequestSchema, request);
  rejectInexpressible(request);
  const imagen = isImagen(model);
  const size = image.size && image.size !== 'auto' ? aspectRatioOf(image.size) : undefined;
  const aspectRatio = size ? { aspectRatio: size.aspectRatio } : {};
  const output = outputOptionsOf(image, imagen);
  const warnings = size?.warning ? [size.warning] : [];
  const n = image.n ?? 1;
  if (imagen) {
    const outputOptions = Object.keys(output).length > 0 ? { outputOptions: output } : {};
    return { method: 'predict', body: { instances: [{ prompt: image.prompt }], parameters: { sampleCount: n, ...aspectRatio, ...outputOptions } }, warnings };
  }
  const generationConfig = {
    responseModalities: ['TEXT', 'IMAGE'],
    ...(n > 1 ? { candidateCount: n } : {}),
    ...(size ? { imageConfig: aspectRatio } : {}),
  };
  return { method: 'generateContent', body: { contents: [{ role: 'user', parts: [{ text: image.prompt }] }], generationConfig }, warnings };
}

const PredictAnswerSchema = z
  .object({
    predictions: z
      .array(z.object({ bytesBase64Encoded: z.string().optional(), mimeType: z.string().optional(), raiFilteredReason: z.string().optional() }).passthrough())
      .optional(),
  })
  .passthrough();

const InlineImageSchema = z.object({ inlineData: z.object({ mimeType: z.string(), data: z.string() }).passthrough() }).passthrough();

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const noImage = (reason: string, detail: string | undefined): EndpointAnswer => ({
  ok: false,
  error: upstreamError(`The Gemini model made no image (${reason})${detail ? `: ${detail}` : '.'}`, reason),
});

/** Imagen's `predictions[].bytesBase64Encoded` → `data[].b64_json`, one unit per image. */
function convertPredictAnswer(json: JsonObject): EndpointAnswer {
  const answer = PredictAnswerSchema.safeParse(json);
  if (!answer.success) return { ok: false, error: malformedAnswer('image answer') };
  const predictions = answer.data.predictions ?? [];
  const images = predictions.flatMap(({ bytesBase64Encoded }) => (bytesBase64Encoded ? [{ b64_json: bytesBase64Encoded }] : []));
  // Imagen leaves out (or, asked, explains) the images its safety filters removed.
  if (images.length === 0) return noImage('FILTERED', predictions.find((prediction) => prediction.raiFilteredReason)?.raiFilteredReason);
  return { ok: true, kind: 'json', body: { created: nowSeconds(), data: images }, usage: { ...NO_USAGE, units: images.length } };
}

/** A gemini-*-image answer: the image parts of every candidate, with the tokens Gemini counted. */
function convertGenerateContentAnswer(json: JsonObject): EndpointAnswer {
  const answer = GenerateContentResponseSchema.safeParse(json);
  if (!answer.success) return { ok: false, error: malformedAnswer('image answer') };
  const candidates = answer.data.candidates ?? [];
  const images = candidates
    .flatMap((candidate) => candidate.content?.parts ?? [])
    .flatMap((part) => {
      const inline = InlineImageSchema.safeParse(part);
      return inline.success && inline.data.inlineData.mimeType.startsWith('image/') ? [{ b64_json: inline.data.inlineData.data }] : [];
    });
  if (images.length === 0) {
    const stopped = candidates.find((candidate) => candidate.finishReason && candidate.finishReason !== 'STOP');
    const blocked = answer.data.promptFeedback?.blockReason;
    return noImage(blocked ?? stopped?.finishReason ?? 'NO_IMAGE', answer.data.promptFeedback?.blockReasonMessage ?? stopped?.finishMessage);
  }
  const tokens = answer.data.usageMetadata ? convertGeminiUsage(answer.data.usageMetadata).reported : undefined;
  const usage = { ...NO_USAGE, units: images.length, promptTokens: tokens?.promptTokens ?? 0, completionTokens: tokens?.completionTokens ?? 0 };
  return { ok: true, kind: 'json', body: { created: nowSeconds(), data: images }, usage };
}

/**
 * `/images/generations` on a Gemini channel. Imagen models (`imagen-*`): `POST
 * {base_url}/models/{model}:predict` with `{instances: [{prompt}], parameters: {sampleCount,
 * aspectRatio?, outputOptions?}}`. The gemini-*-image models: `:generateContent` with image
 * output asked for (`responseModalities`), `n` as `candidateCount`. `size` becomes the nearest
 * aspect ratio; the images come back as `b64_json` (a URL is a 400: Gemini returns bytes only).
 */
export const geminiImagesAdapter: EndpointAdapter<JsonRequest> = {
  endpoint: 'images',
  buildRequest: ({ channel, key, request, upstreamModel }) => {
    const model = upstreamModel.replace(/^models\//, '');
    const call = imageCallOf(request, model);
    return {
      url: `${trimBaseUrl(channel.baseUrl)}/models/${encodeURIComponent(model)}:${call.method}`,
      headers: { ...geminiAuthHeaders(key), 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
      ...(call.warnings.length > 0 ? { warnings: call.warnings } : {}),
    };
  },
  // The answer's own shape tells which call it answers (the upstream model is not known here):
  // generateContent always answers candidates or prompt feedback; Imagen answers predictions, or
  // `{}` when its filters removed every image.
  convertResponse: (text) => {
    const read = readJsonObject(text, 'image answer');
    if (!read.ok) return read;
    const generated = 'candidates' in read.json || 'promptFeedback' in read.json;
    return generated ? convertGenerateContentAnswer(read.json) : convertPredictAnswer(read.json);
  },
  mapErrorResponse: mapGeminiErrorResponse,
};
