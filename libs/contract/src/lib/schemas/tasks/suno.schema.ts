import { z } from 'zod';

/**
 * The Suno-style task API as new-api exposes it (`/suno/submit/:action`, `/suno/fetch`,
 * `/suno/fetch/:id`), which music clients written for new-api speak. Shapes follow new-api's
 * `dto/suno.go`: every answer is `{code, message, data}`, `code` "success" when it worked.
 */

/** `music` makes a song (from a prompt, or lyrics with a style); `lyrics` writes lyrics. */
export const SunoActionSchema = z.enum(['music', 'lyrics']);
export type SunoAction = z.infer<typeof SunoActionSchema>;

/** The model a Suno action is routed and priced by, as new-api names it (`suno_music`, `suno_lyrics`). */
export const sunoModelOf = (action: SunoAction): string => `suno_${action}`;

/** new-api's SunoSubmitReq; unknown fields are kept and forwarded. */
export const SunoSubmitRequestSchema = z
  .object({
    gpt_description_prompt: z.string().max(32_000).optional(),
    prompt: z.string().max(32_000).optional(),
    mv: z.string().max(200).optional(),
    title: z.string().max(1_000).optional(),
    tags: z.string().max(2_000).optional(),
    continue_at: z.number().nonnegative().optional(),
    task_id: z.string().max(200).optional(),
    continue_clip_id: z.string().max(200).optional(),
    make_instrumental: z.boolean().optional(),
    instrumental: z.boolean().optional(),
    model: z.string().max(200).optional(),
    callBackUrl: z.string().max(2_000).optional(),
    customMode: z.boolean().optional(),
  })
  .passthrough();
export type SunoSubmitRequest = z.infer<typeof SunoSubmitRequestSchema>;

export const SunoActionParamsSchema = z.object({ action: SunoActionSchema });
export const SunoIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

/** `POST /suno/fetch`: several tasks by id (at most 100). */
export const SunoFetchRequestSchema = z
  .object({ ids: z.array(z.string().min(1).max(200)).max(100), action: z.string().optional() })
  .passthrough();
export type SunoFetchRequest = z.infer<typeof SunoFetchRequestSchema>;

/** new-api's task statuses, as Suno-style clients read them. */
export const SunoTaskStatusSchema = z.enum(['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN']);
export type SunoTaskStatus = z.infer<typeof SunoTaskStatusSchema>;

/** new-api's TaskDto: one task; `data` is what the upstream reported (the songs, or the lyrics). */
export const SunoTaskSchema = z
  .object({
    task_id: z.string(),
    action: z.string(),
    status: SunoTaskStatusSchema,
    fail_reason: z.string(),
    submit_time: z.number().int(),
    start_time: z.number().int(),
    finish_time: z.number().int(),
    progress: z.string(),
    data: z.unknown(),
  })
  .passthrough();
export type SunoTask = z.infer<typeof SunoTaskSchema>;

const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ code: z.string(), message: z.string(), data }).strict();

/** `POST /suno/submit/:action`: the new task's id. */
export const SunoSubmitResponseSchema = envelope(z.string());
export const SunoTaskResponseSchema = envelope(SunoTaskSchema);
export const SunoTaskListResponseSchema = envelope(z.array(SunoTaskSchema));
/** new-api's TaskError as its routes write it: `{code, message, data: null}` with the HTTP status. */
export const SunoErrorResponseSchema = z.object({ code: z.string(), message: z.string(), data: z.null() }).strict();
export type SunoErrorResponse = z.infer<typeof SunoErrorResponseSchema>;
