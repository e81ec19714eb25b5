import { z } from 'zod';
import { pageOf, TimestampSchema } from './common.schema';

export const ChannelTypeSchema = z.enum(['openai', 'anthropic', 'gemini']);
export type ChannelType = z.infer<typeof ChannelTypeSchema>;

/** A model name or a glob (`gpt-4o*`, `*-gizmo-*`): `*` any run of characters, `?` one. */
const ModelPatternSchema = z.string().trim().min(1).max(200);

export const ChannelTimeoutsSchema = z
  .object({
    connect_ms: z.number().int().min(1).max(600_000),
    first_byte_ms: z.number().int().min(1).max(3_600_000),
    idle_ms: z.number().int().min(1).max(3_600_000),
  })
  .strict();
export type ChannelTimeouts = z.infer<typeof ChannelTimeoutsSchema>;

const baseUrl = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL')
  .transform((url) => url.replace(/\/+$/, ''));

const channelFields = {
  name: z.string().trim().min(1).max(200),
  type: ChannelTypeSchema,
  /** Includes the version path, as an OpenAI SDK's baseURL does: `https://api.openai.com/v1`. */
  base_url: baseUrl,
  keys: z.array(z.string().min(1).max(4096)).min(1).max(1000),
  models: z.array(ModelPatternSchema).min(1).max(1000),
  /** Public model name → the name sent upstream. */
  model_mapping: z.record(z.string().min(1), z.string().min(1)),
  priority: z.number().int().min(-1_000_000).max(1_000_000),
  weight: z.number().int().min(1).max(1_000_000),
  enabled: z.boolean(),
  timeouts: ChannelTimeoutsSchema.partial().strict(),
};

export const ChannelCreateSchema = z
  .object({
    ...channelFields,
    model_mapping: channelFields.model_mapping.optional(),
    priority: channelFields.priority.optional(),
    weight: channelFields.weight.optional(),
    enabled: channelFields.enabled.optional(),
    timeouts: channelFields.timeouts.optional(),
  })
  .strict();
export type ChannelCreate = z.infer<typeof ChannelCreateSchema>;

export const ChannelUpdateSchema = z
  .object(channelFields)
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type ChannelUpdate = z.infer<typeof ChannelUpdateSchema>;

/** What the API shows of a channel: never its keys, only their hints. */
export const ChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: ChannelTypeSchema,
  base_url: z.string(),
  key_hints: z.array(z.string()),
  models: z.array(z.string()),
  model_mapping: z.record(z.string()),
  priority: z.number().int(),
  weight: z.number().int(),
  enabled: z.boolean(),
  timeouts: ChannelTimeoutsSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Channel = z.infer<typeof ChannelSchema>;

export const ChannelPageSchema = pageOf(ChannelSchema);
