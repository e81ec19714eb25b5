import { CatalogueModelSchema, ReasoningOptionSchema, type CatalogueModel } from '@chat-relay/contract';
import { z } from 'zod';
import { familyOfProvider } from './model-family-rules';

/**
 * One model as models.dev's api.json has it (https://models.dev/api.json; its schema:
 * packages/core/src/schema.ts of github.com/anomalyco/models.dev). Only what the relay reads;
 * the rest is ignored, and a field of an unexpected shape drops that field, not the model.
 */
const ModelsDevModelSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().max(200).optional().catch(undefined),
  reasoning: z.boolean().optional().catch(undefined),
  reasoning_options: z.array(ReasoningOptionSchema).max(10).optional().catch(undefined),
  temperature: z.boolean().optional().catch(undefined),
  tool_call: z.boolean().optional().catch(undefined),
  structured_output: z.boolean().optional().catch(undefined),
  modalities: z.object({ input: z.array(z.string().max(20)).max(10), output: z.array(z.string().max(20)).max(10) }).optional().catch(undefined),
  cost: z
    .object({
      input: z.number().nonnegative().max(1_000_000),
      output: z.number().nonnegative().max(1_000_000),
      cache_read: z.number().nonnegative().max(1_000_000).optional(),
      cache_write: z.number().nonnegative().max(1_000_000).optional(),
      input_audio: z.number().nonnegative().max(1_000_000).optional(),
      output_audio: z.number().nonnegative().max(1_000_000).optional(),
    })
    .optional()
    .catch(undefined),
  limit: z
    .object({ context: z.number().int().nonnegative().optional(), output: z.number().int().nonnegative().optional() })
    .optional()
    .catch(undefined),
  status: z.string().max(20).optional().catch(undefined),
});

const ModelsDevSchema = z.record(
  z.string(),
  z.object({ id: z.string().min(1).max(100), models: z.record(z.string(), z.unknown()) }),
);

export interface ReadModelsDev {
  models: CatalogueModel[];
  /** Model entries left out because they could not be read (no id, an id too long …). */
  skipped: number;
}

const positive = (count: number | undefined): number | undefined => (count !== undefined && count > 0 ? count : undefined);

/**
 * models.dev's api.json (or the relay's seed, a subset of it) → catalogue entries, each with its
 * provider and the family whose rules it follows. A provider listed first wins an id that several
 * list (the seed keeps first-party providers only).
 */
export function readModelsDev(json: unknown): ReadModelsDev {
  const parsed = ModelsDevSchema.safeParse(json);
  if (!parsed.success) throw new Error(`not a models.dev catalogue: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
  const models: CatalogueModel[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const provider of Object.values(parsed.data)) {
    for (const raw of Object.values(provider.models)) {
      const model = ModelsDevModelSchema.safeParse(raw);
      if (!model.success || seen.has(model.data.id)) {
        skipped += model.success ? 0 : 1;
        continue;
      }
      const { id, name, reasoning, temperature, tool_call, structured_output, modalities, cost, limit, status } = model.data;
      const entry: CatalogueModel = {
        id,
        provider: provider.id,
        family: familyOfProvider(provider.id),
        ...(name !== undefined && { name }),
        ...(positive(limit?.context) !== undefined && { context_window: positive(limit?.context) }),
        ...(positive(limit?.output) !== undefined && { max_output_tokens: positive(limit?.output) }),
        ...(reasoning !== undefined && { reasoning }),
        ...(model.data.reasoning_options !== undefined && { reasoning_options: model.data.reasoning_options }),
        // models.dev's `temperature: false` is a model that takes no sampling temperature.
        ...(temperature === false && { params: { temperature: false } }),
        ...(tool_call !== undefined && { tool_call }),
        ...(structured_output !== undefined && { structured_output }),
        ...(modalities !== undefined && { modalities }),
        ...(cost !== undefined && { cost }),
        ...(status !== undefined && { status }),
      };
      const checked = CatalogueModelSchema.safeParse(entry);
      if (!checked.success) {
        skipped += 1;
        continue;
      }
      seen.add(id);
      models.push(checked.data);
    }
  }
  return { models, skipped };
}
