import { z } from 'zod';
import { TimestampSchema } from './common.schema';

/**
 * Fallback across models (issue 32): when a model has no channel left to try, the next model of
 * its chain answers — only before the first byte reaches the caller. Each failure class is opt-in
 * per rule; a request's own `models: [...]` / `fallbacks: [...]` fall back on the default classes.
 */
export const FallbackTriggerSchema = z.enum([
  /** Every channel answered 429 (or was resting after one). */
  'rate_limited',
  /** 5xx, overloaded, connection failures. */
  'upstream_error',
  /** Connect, first-byte or idle timeouts. */
  'timeout',
  /** No healthy channel serves the model (503 no_available_channel, or none at all). */
  'no_channel',
  /** The prompt does not fit the model's context window: from the catalogue before sending, or the upstream's own error. */
  'context_length',
  /** The upstream's content filter refused the request. */
  'content_filtered',
]);
export type FallbackTrigger = z.infer<typeof FallbackTriggerSchema>;

/** What falls back when a rule or a request names none: the failures of the model, not of the request. */
export const DEFAULT_FALLBACK_TRIGGERS: readonly FallbackTrigger[] = ['rate_limited', 'upstream_error', 'timeout', 'no_channel'];

const modelName = z.string().trim().min(1).max(200);

/** A chain is the requested model and at most nine fallbacks: a hop each, ten at most. */
export const MAX_FALLBACK_HOPS = 10;

/** A model a request lists: as sent (no trim: the caller's bytes are what is checked against the allow-list). */
const listedModel = z.string().min(1, 'must not be empty').max(200);

/**
 * A request's own chain, on chat, Messages and Responses: `models` (OpenRouter's form — the first
 * entry is the model, and `model` may then be left out) or `fallbacks` (LiteLLM's: tried after
 * `model`). Never forwarded upstream: the relay strips both before anything is sent.
 */
export const modelChainFields = {
  /** Required unless `models` names it (requireModel); filled from it (withModelFromChain). */
  model: z.string().min(1, 'must not be empty').optional(),
  models: z.array(listedModel).min(1).max(MAX_FALLBACK_HOPS).optional(),
  fallbacks: z.array(listedModel).min(1).max(MAX_FALLBACK_HOPS - 1).optional(),
};

/** A request named its model (`model`) or listed its chain (`models`). */
export function requireModel(body: { model?: string; models?: string[] }, context: z.RefinementCtx): void {
  if (body.model === undefined && body.models === undefined) {
    context.addIssue({ code: z.ZodIssueCode.invalid_type, expected: 'string', received: 'undefined', path: ['model'], message: 'Required' });
  }
}

/** `model` filled from `models[0]` when the caller left it out; the same object otherwise. */
export function withModelFromChain<T extends { model?: string; models?: string[] }>(body: T): T & { model: string } {
  if (body.model !== undefined) return body as T & { model: string };
  return { ...body, model: body.models?.[0] ?? '' };
}

/** An admin-defined chain: requests for `model` (a name or glob) fall back to `fallbacks`, in order. */
export const FallbackRuleSchema = z.object({
  id: z.number().int(),
  model: z.string(),
  fallbacks: z.array(z.string()),
  triggers: z.array(FallbackTriggerSchema),
  enabled: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type FallbackRule = z.infer<typeof FallbackRuleSchema>;

export const FallbackRuleCreateSchema = z
  .object({
    model: modelName,
    fallbacks: z.array(modelName).min(1).max(10),
    /** Default: DEFAULT_FALLBACK_TRIGGERS. */
    triggers: z.array(FallbackTriggerSchema).min(1).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type FallbackRuleCreate = z.infer<typeof FallbackRuleCreateSchema>;

export const FallbackRuleUpdateSchema = z
  .object({
    model: modelName,
    fallbacks: z.array(modelName).min(1).max(10),
    triggers: z.array(FallbackTriggerSchema).min(1),
    enabled: z.boolean(),
  })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type FallbackRuleUpdate = z.infer<typeof FallbackRuleUpdateSchema>;

export const FallbackRuleListSchema = z.object({ data: z.array(FallbackRuleSchema) });

/** Response headers of a relayed request: the model that served it, and every model tried in order (comma-separated). */
export const SERVED_MODEL_HEADER = 'x-relay-served-model';
export const MODELS_TRIED_HEADER = 'x-relay-models-tried';
