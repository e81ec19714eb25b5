import { z } from 'zod';
import { EndpointModelSchema, nullish, UploadedFilePartSchema } from '../openai-endpoints/endpoint-common.schema';

/** The model used when a video request names none (OpenAI's default). */
export const DEFAULT_VIDEO_MODEL = 'sora-2';
/** OpenAI's defaults: a 4-second clip at 720x1280. */
export const DEFAULT_VIDEO_SECONDS = '4';
export const DEFAULT_VIDEO_SIZE = '720x1280';
/** The longest clip the relay admits (it reserves quota for every second asked). */
export const MAX_VIDEO_SECONDS = 120;

/** `4`, `8`, `12` today; any whole number of seconds up to MAX_VIDEO_SECONDS is passed on for the upstream to judge. */
export const VideoSecondsSchema = z
  .string()
  .regex(/^\d{1,3}$/, 'a whole number of seconds, as a string ("4", "8", "12")')
  .refine((value) => Number(value) >= 1 && Number(value) <= MAX_VIDEO_SECONDS, `between 1 and ${MAX_VIDEO_SECONDS} seconds`);
/** `720x1280`, `1280x720`, `1024x1792`, `1792x1024`: width x height. */
export const VideoSizeSchema = z.string().regex(/^\d{2,5}x\d{2,5}$/, 'width x height, such as 720x1280');

/** A reference image by URL (or data URL) or by uploaded file id: exactly one of them. */
export const VideoImageReferenceSchema = z
  .object({ image_url: z.string().min(1).max(20_971_520).optional(), file_id: z.string().min(1).optional() })
  .strict()
  .refine((value) => (value.image_url === undefined) !== (value.file_id === undefined), 'give exactly one of image_url or file_id');

/**
 * `POST /v1/videos`, as JSON or as multipart (the official SDKs send multipart, with
 * `input_reference` a file part or `input_reference[image_url]` / `[file_id]` fields). Unknown
 * fields are kept and forwarded.
 */
export const VideoCreateRequestSchema = z
  .object({
    model: nullish(EndpointModelSchema),
    prompt: z.string().min(1).max(32_000),
    input_reference: z.union([VideoImageReferenceSchema, UploadedFilePartSchema]).optional(),
    seconds: nullish(z.union([VideoSecondsSchema, z.number().int().min(1).max(MAX_VIDEO_SECONDS).transform(String)])),
    size: nullish(VideoSizeSchema),
  })
  .passthrough();
export type VideoCreateRequest = z.infer<typeof VideoCreateRequestSchema>;

export const VideoStatusSchema = z.enum(['queued', 'in_progress', 'completed', 'failed']);
export type VideoStatus = z.infer<typeof VideoStatusSchema>;

/** OpenAI's `Video` object (VideoResource): the relay's id and the caller's model name, never the upstream's. */
export const VideoSchema = z
  .object({
    id: z.string(),
    object: z.literal('video'),
    model: z.string(),
    status: VideoStatusSchema,
    progress: z.number().int().min(0).max(100),
    created_at: z.number().int(),
    completed_at: z.number().int().nullable(),
    expires_at: z.number().int().nullable(),
    prompt: z.string().nullable(),
    size: z.string(),
    seconds: z.string(),
    remixed_from_video_id: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .passthrough();
export type Video = z.infer<typeof VideoSchema>;

export const VideoListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    after: z.string().min(1).optional(),
  })
  .strict();
export type VideoListQuery = z.infer<typeof VideoListQuerySchema>;

export const VideoListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(VideoSchema),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  })
  .strict();
export type VideoList = z.infer<typeof VideoListSchema>;

export const VideoDeletedSchema = z.object({ id: z.string(), object: z.literal('video.deleted'), deleted: z.boolean() }).strict();
export type VideoDeleted = z.infer<typeof VideoDeletedSchema>;

export const VideoContentVariantSchema = z.enum(['video', 'thumbnail', 'spritesheet']);
export type VideoContentVariant = z.infer<typeof VideoContentVariantSchema>;
export const VideoContentQuerySchema = z.object({ variant: VideoContentVariantSchema.optional() }).strict();
