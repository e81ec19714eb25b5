import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { DEFAULT_IMAGE_MODEL, ImageEditFieldsSchema, ImageGenerationRequestSchema } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { parseOpenAiBody, validateOpenAiValue } from '../parse-openai-body';
import { countTokens } from '../tokens';
import { openAiDialect, planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from './endpoint-answer';
import type { ImageStore } from './image-store';
import { filesNamed, formObject, formXSim, type ParsedForm } from './multipart';
import { simPng } from './png';

export interface ImagesContext extends EndpointFaultContext {
  imageStore: ImageStore;
}

/** Where the answer's image URLs point: this simulator, as the caller reached it. */
export interface ImageCall {
  origin: string;
}

/** What one images request asks for, generation or edit. */
interface ImageJob {
  model: string;
  prompt: string;
  n: number;
  responseFormat: 'url' | 'b64_json' | undefined;
  size: string | undefined;
  quality: string | undefined;
  background: string | undefined;
  /** A digest of the uploaded images (edits), so another picture gets another answer. */
  inputDigest: string;
  inputImages: number;
}

/** Image tokens of one output image of a GPT image model, by quality (square, then portrait/landscape). */
const outputTokens: Record<string, [number, number]> = { low: [272, 408], medium: [1056, 1584], high: [4160, 6240] };
/** Tokens an input image costs a GPT image model (edits): a fixed figure. */
export const inputImageTokens = 255;
const gptImageSizes = new Set(['1024x1024', '1024x1536', '1536x1024']);

function isGptImage(model: string): boolean {
  return model.startsWith('gpt-image');
}

/** `{created, data, …}`: one PNG per image, base64 or a URL to `GET /files/<id>.png`; GPT image models add usage. */
function imagesAnswer(job: ImageJob, call: ImageCall, store: ImageStore): Record<string, unknown> {
  const gptImage = isGptImage(job.model);
  const format = job.responseFormat ?? (gptImage ? 'b64_json' : 'url');
  const prompt = stripSimMarkers(job.prompt);
  const data = Array.from({ length: job.n }, (_, index) => {
    const png = simPng(JSON.stringify([job.model, prompt, job.size ?? '', job.inputDigest, index]));
    const image = format === 'url' ? { url: `${call.origin}/files/${store.put(png)}.png` } : { b64_json: png.toString('base64') };
    return job.model === 'dall-e-3' ? { ...image, revised_prompt: prompt } : image;
  });
  const created = Math.floor(Date.now() / 1000);
  if (!gptImage) return { created, data };
  const size = job.size !== undefined && gptImageSizes.has(job.size) ? job.size : '1024x1024';
  const quality = job.quality !== undefined && job.quality in outputTokens ? job.quality : 'medium';
  const [square, oblong] = outputTokens[quality] ?? [0, 0];
  const textTokens = countTokens(prompt);
  const imageTokens = job.inputImages * inputImageTokens;
  const output = (size === '1024x1024' ? square : oblong) * job.n;
  return {
    created,
    data,
    background: job.background === 'transparent' ? 'transparent' : 'opaque',
    output_format: 'png',
    size,
    quality,
    usage: {
      input_tokens: textTokens + imageTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
      output_tokens: output,
      total_tokens: textTokens + imageTokens + output,
    },
  };
}

async function answerImages(
  res: ServerResponse,
  job: ImageJob,
  xSim: unknown,
  call: ImageCall,
  context: ImagesContext,
): Promise<void> {
  const planned = planEndpointCall(xSim, job.prompt, 'prompt', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const body = JSON.stringify(imagesAnswer(job, call, context.imageStore));
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { body, work: job.n });
}

/** POST /v1/images/generations */
export async function handleImageGenerations(
  res: ServerResponse,
  rawBody: string,
  call: ImageCall,
  context: ImagesContext,
): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, ImageGenerationRequestSchema);
  if (!request) return;
  const job: ImageJob = {
    model: request.model ?? DEFAULT_IMAGE_MODEL,
    prompt: request.prompt,
    n: request.n ?? 1,
    responseFormat: request.response_format ?? undefined,
    size: request.size ?? undefined,
    quality: request.quality ?? undefined,
    background: request.background ?? undefined,
    inputDigest: '',
    inputImages: 0,
  };
  await answerImages(res, job, request['x_sim'], call, context);
}

/** POST /v1/images/edits (multipart: `image` or `image[]`, optional `mask`, `prompt`); 400 without an image. */
export async function handleImageEdits(
  res: ServerResponse,
  form: ParsedForm,
  call: ImageCall,
  context: ImagesContext,
): Promise<void> {
  const fields = validateOpenAiValue(res, formObject(form), ImageEditFieldsSchema);
  if (!fields) return;
  const images = [...filesNamed(form, 'image'), ...filesNamed(form, 'mask')];
  const digest = createHash('sha256');
  for (const image of images) digest.update(image.data);
  const job: ImageJob = {
    model: fields.model ?? DEFAULT_IMAGE_MODEL,
    prompt: fields.prompt,
    n: fields.n ?? 1,
    responseFormat: fields.response_format,
    size: fields.size,
    quality: fields.quality,
    background: fields.background,
    inputDigest: digest.digest('hex'),
    inputImages: filesNamed(form, 'image').length,
  };
  await answerImages(res, job, formXSim(form), call, context);
}
