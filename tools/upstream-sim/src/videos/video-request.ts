import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FormResult } from '../endpoints/multipart';
import { formXSim } from '../endpoints/multipart';
import { sendError } from '../http-io';
import { openAiError } from '../openai-error';
import { readOpenAiJson, validateOpenAiValue } from '../parse-openai-body';

/** OpenAI's defaults when a request leaves them out. */
export const defaultVideoModel = 'sora-2';
export const defaultVideoSeconds = '4';
export const defaultVideoSize = '720x1280';
/** What OpenAI accepts (VideoSeconds, VideoSize in its OpenAPI description). */
export const videoSecondsAccepted = ['4', '8', '12'] as const;
export const videoSizesAccepted = ['720x1280', '1280x720', '1024x1792', '1792x1024'] as const;

/** A reference image by URL or by file id: exactly one (ImageRefParam). */
const ImageReferenceSchema = z
  .object({ image_url: z.string().min(1).optional(), file_id: z.string().min(1).optional() })
  .strict()
  .refine((value) => (value.image_url === undefined) !== (value.file_id === undefined), 'provide exactly one of image_url or file_id');
/** An uploaded reference file, as the multipart reader shows it. */
const UploadedReferenceSchema = z.object({ filename: z.string(), content_type: z.string(), size: z.number() }).strict();

/** CreateVideoJsonBody / CreateVideoMultipartBody; the simulator answers any model and keeps other fields. */
const VideoCreateSchema = z
  .object({
    model: z.string().min(1).optional(),
    prompt: z.string().min(1).max(32_000),
    input_reference: z.union([ImageReferenceSchema, UploadedReferenceSchema]).optional(),
    seconds: z.string().optional(),
    size: z.string().optional(),
    x_sim: z.unknown().optional(),
  })
  .passthrough();

/** A video job as asked, defaults filled in. */
export interface VideoCreate {
  model: string;
  /** As sent, markers included (OpenAI echoes the prompt). */
  prompt: string;
  seconds: string;
  size: string;
  xSim: unknown;
}

const referenceField = /^input_reference\[(image_url|file_id)\]$/;

/** A multipart form as the JSON body it stands for: `input_reference[image_url]` fields become an object. */
function formAsBody(form: Extract<FormResult, { kind: 'form' }>['form']): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const reference: Record<string, string> = {};
  for (const [name, value] of form.fields) {
    const referenceKey = referenceField.exec(name)?.[1];
    if (referenceKey) reference[referenceKey] = value;
    else if (name !== 'x_sim') body[name] = value;
  }
  const file = form.files.find((upload) => upload.field === 'input_reference');
  if (file) body['input_reference'] = { filename: file.filename, content_type: file.contentType, size: file.data.length };
  else if (Object.keys(reference).length > 0) body['input_reference'] = reference;
  const xSim = formXSim(form);
  if (xSim !== undefined) body['x_sim'] = xSim;
  return body;
}

function sendInvalidValue(res: ServerResponse, param: string, value: string, accepted: readonly string[]): void {
  const listed = accepted.map((item) => `'${item}'`);
  const supported = `${listed.slice(0, -1).join(', ')}, and ${listed.at(-1) ?? ''}`;
  const message = `Invalid value: '${value}'. Supported values are: ${supported}.`;
  sendError(res, 400, openAiError(message, 'invalid_request_error', param, 'invalid_value'));
}

/**
 * `POST /v1/videos` as JSON or multipart (what the `openai` SDK sends): the job, or undefined
 * once OpenAI's 400 is sent (missing prompt, seconds other than 4/8/12, an unknown size).
 */
export function readVideoCreate(res: ServerResponse, rawBody: string, form: FormResult | undefined): VideoCreate | undefined {
  if (form?.kind === 'invalid') {
    sendError(res, 400, openAiError(`Could not parse multipart form: ${form.message}`, 'invalid_request_error'));
    return undefined;
  }
  const json = form ? { json: formAsBody(form.form) } : readOpenAiJson(res, rawBody);
  if (!json) return undefined;
  const request = validateOpenAiValue(res, json.json, VideoCreateSchema);
  if (!request) return undefined;
  const seconds = request.seconds ?? defaultVideoSeconds;
  const size = request.size ?? defaultVideoSize;
  if (!videoSecondsAccepted.some((accepted) => accepted === seconds)) {
    sendInvalidValue(res, 'seconds', seconds, videoSecondsAccepted);
    return undefined;
  }
  if (!videoSizesAccepted.some((accepted) => accepted === size)) {
    sendInvalidValue(res, 'size', size, videoSizesAccepted);
    return undefined;
  }
  return { model: request.model ?? defaultVideoModel, prompt: request.prompt, seconds, size, xSim: request.x_sim };
}
