import { z } from 'zod';
import { EndpointModelSchema, formBoolean, formNumber, nullish, UploadedFilePartSchema } from './endpoint-common.schema';

/** The model used when an image request names none (OpenAI's default). */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2';

/** OpenAI's qualities: `hd` and `standard` for dall-e-3, `standard` for dall-e-2, the rest for GPT image models. */
export const IMAGE_QUALITIES = ['standard', 'hd', 'low', 'medium', 'high', 'auto'] as const;
/** No `hd`: edits are made by dall-e-2 and the GPT image models. */
export const IMAGE_EDIT_QUALITIES = ['standard', 'low', 'medium', 'high', 'auto'] as const;

const imageFields = {
  /** Optional and nullable, as OpenAI has it: the relay then routes on DEFAULT_IMAGE_MODEL. */
  model: nullish(EndpointModelSchema),
  n: nullish(z.number().int().min(1).max(10)),
  quality: nullish(z.enum(IMAGE_QUALITIES)),
  response_format: nullish(z.enum(['url', 'b64_json'])),
  size: nullish(z.string().min(1)),
  user: z.string().optional(),
  background: nullish(z.enum(['transparent', 'opaque', 'auto'])),
  output_format: nullish(z.enum(['png', 'jpeg', 'webp'])),
  output_compression: nullish(z.number().int().min(0).max(100)),
  /** GPT image models: how many partial images to stream before the last. */
  partial_images: nullish(z.number().int().min(0).max(3)),
};

/** `POST /v1/images/generations`. Unknown fields are kept and forwarded. */
export const ImageGenerationRequestSchema = z
  .object({
    ...imageFields,
    prompt: z.string().min(1).max(32_000),
    style: nullish(z.enum(['vivid', 'natural'])),
    moderation: nullish(z.enum(['low', 'auto'])),
    stream: nullish(z.boolean()),
  })
  .passthrough();
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequestSchema>;

/**
 * `POST /v1/images/edits` (multipart): one image or several (`image[]`), an optional mask, a
 * prompt. Text fields arrive as text; numbers are read from it.
 */
export const ImageEditFieldsSchema = z
  .object({
    image: z.union([UploadedFilePartSchema, z.array(UploadedFilePartSchema).min(1).max(16)]),
    mask: UploadedFilePartSchema.optional(),
    prompt: z.string().min(1).max(32_000),
    model: EndpointModelSchema.optional(),
    n: formNumber(z.number().int().min(1).max(10)).optional(),
    quality: z.enum(IMAGE_EDIT_QUALITIES).optional(),
    response_format: z.enum(['url', 'b64_json']).optional(),
    size: z.string().min(1).optional(),
    user: z.string().optional(),
    background: z.enum(['transparent', 'opaque', 'auto']).optional(),
    output_format: z.enum(['png', 'jpeg', 'webp']).optional(),
    output_compression: formNumber(z.number().int().min(0).max(100)).optional(),
    input_fidelity: z.enum(['high', 'low']).optional(),
    stream: formBoolean.optional(),
    partial_images: formNumber(z.number().int().min(0).max(3)).optional(),
  })
  .passthrough();
export type ImageEditFields = z.infer<typeof ImageEditFieldsSchema>;

export const ImageSchema = z
  .object({ b64_json: z.string().optional(), url: z.string().optional(), revised_prompt: z.string().optional() })
  .passthrough();

export const ImagesResponseSchema = z
  .object({
    created: z.number().int(),
    data: z.array(ImageSchema),
    usage: z
      .object({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type ImagesResponse = z.infer<typeof ImagesResponseSchema>;
