import { z } from 'zod';
import { ResponseFormatSchema } from './chat-completion-request.schema';
import { pageOf, TimestampSchema } from './common.schema';
import { ToolSchema } from './tool.schema';

/** `g-` + letters and digits: the part after `-gizmo-` in a model name (SPEC §5). */
export const ASSISTANT_ID_PATTERN = /^g-[A-Za-z0-9]+$/;
export const AssistantIdSchema = z
  .string()
  .max(64)
  .regex(ASSISTANT_ID_PATTERN, "must be 'g-' followed by letters and digits");

/**
 * `private`: its account's callers only. `public`: every account's — set by the admin key only (an
 * account key answers 403 `public_assistant_needs_admin`); the admin publishing an id another
 * account's public assistant holds takes it back, and that one becomes private to its owner.
 */
export const AssistantVisibilitySchema = z.enum(['private', 'public']);
export type AssistantVisibility = z.infer<typeof AssistantVisibilitySchema>;

const assistantFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  /** The assistant's system prompt: sent first, before the caller's messages. */
  instructions: z.string().max(256_000),
  tools: z.array(ToolSchema).max(128),
  temperature: z.number().min(0).max(2).nullable(),
  top_p: z.number().min(0).max(1).nullable(),
  max_tokens: z.number().int().positive().nullable(),
  response_format: ResponseFormatSchema.nullable(),
  /** Allowed model families (names or globs); null = any. */
  models: z.array(z.string().trim().min(1).max(200)).min(1).max(100).nullable(),
  visibility: AssistantVisibilitySchema,
};

export const AssistantCreateSchema = z
  .object({
    id: AssistantIdSchema.optional(),
    name: assistantFields.name,
    description: assistantFields.description.optional(),
    instructions: assistantFields.instructions.optional(),
    tools: assistantFields.tools.optional(),
    temperature: assistantFields.temperature.optional(),
    top_p: assistantFields.top_p.optional(),
    max_tokens: assistantFields.max_tokens.optional(),
    response_format: assistantFields.response_format.optional(),
    models: assistantFields.models.optional(),
    visibility: assistantFields.visibility.optional(),
  })
  .strict();
export type AssistantCreate = z.infer<typeof AssistantCreateSchema>;

export const AssistantUpdateSchema = z
  .object(assistantFields)
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type AssistantUpdate = z.infer<typeof AssistantUpdateSchema>;

export const AssistantUsageSchema = z.object({
  /** Requests through this assistant in the last 30 days, and their tokens. */
  requests_30d: z.number().int().nonnegative(),
  prompt_tokens_30d: z.number().int().nonnegative(),
  completion_tokens_30d: z.number().int().nonnegative(),
  /** Of `prompt_tokens_30d`, those read from and written to the provider's prompt cache. */
  cache_read_tokens_30d: z.number().int().nonnegative(),
  cache_write_tokens_30d: z.number().int().nonnegative(),
});

export const AssistantSchema = z.object({
  id: AssistantIdSchema,
  object: z.literal('assistant'),
  account_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  tools: z.array(ToolSchema),
  temperature: z.number().nullable(),
  top_p: z.number().nullable(),
  max_tokens: z.number().int().nullable(),
  response_format: ResponseFormatSchema.nullable(),
  models: z.array(z.string()).nullable(),
  visibility: AssistantVisibilitySchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Assistant = z.infer<typeof AssistantSchema>;

/** One assistant with its recent usage (GET /api/assistants/:id). */
export const AssistantWithUsageSchema = AssistantSchema.extend({ usage: AssistantUsageSchema });
export type AssistantWithUsage = z.infer<typeof AssistantWithUsageSchema>;

export const AssistantPageSchema = pageOf(AssistantSchema);
