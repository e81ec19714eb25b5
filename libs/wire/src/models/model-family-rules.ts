import type { CatalogueModel, ModelFamily, ModelParams } from '@chat-relay/contract';

/** Every sampling parameter the catalogue tells about, decided. */
export type AcceptedParams = Required<ModelParams>;

const ALL: AcceptedParams = {
  temperature: true,
  top_p: true,
  temperature_with_top_p: true,
  top_k: true,
  penalties: true,
  seed: true,
  logprobs: true,
  n: true,
};

/** The family whose rules a dataset provider's models follow (models.dev provider ids). */
export function familyOfProvider(provider: string): ModelFamily {
  if (provider === 'openai' || provider === 'azure') return 'openai';
  if (provider === 'anthropic') return 'anthropic';
  if (provider === 'google' || provider === 'google-vertex') return 'gemini';
  return 'other';
}

/** The family of a model the catalogue does not know, by the shape of its name. */
export function familyOfName(model: string): ModelFamily {
  const name = model.toLowerCase();
  if (/^claude-/.test(name)) return 'anthropic';
  if (/^(models\/)?(gemini|gemma)-/.test(name)) return 'gemini';
  if (/^(gpt-|chatgpt-|o\d(-|$)|codex-|text-embedding-|omni-moderation)/.test(name)) return 'openai';
  return 'other';
}

/**
 * Claude models that refuse `temperature` together with `top_p` (400 "`temperature` and `top_p`
 * cannot both be specified for this model. Please use only one."): Opus 4.1 and every model
 * from 4.5 on. Seen on Opus 4.1 (open-webui/pipelines#546), Sonnet 4.5 (langfuse/langfuse#9882),
 * Opus 4.5 (SalesforceAIResearch/MCP-Universe#49), Sonnet 4.6 (Vali-98/ChatterUI#564).
 */
export function claudeRefusesTemperatureWithTopP(model: string): boolean {
  // claude-opus-4-1-20250805, claude-sonnet-4-5, claude-3-7-sonnet-…, claude-opus-4-20250514 (4.0: the date is no minor).
  const match = /^claude-(?:[a-z]+-)?(\d+)(?:[-.](\d{1,2}))?(?!\d)/.exec(model.toLowerCase());
  if (!match) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 1);
}

/**
 * Which sampling parameters a model takes, where the dataset does not say (models.dev records
 * only whether a model takes `temperature`). Each rule is the provider's documented behaviour:
 *
 * - OpenAI: Chat Completions has no `top_k` (400 "Unrecognized request argument supplied:
 *   top_k"). Reasoning models (o-series, GPT-5) take no sampling parameters, penalties or
 *   logprobs (https://platform.openai.com/docs/guides/reasoning — "Unsupported value:
 *   'temperature' does not support 0.2 with this model. Only the default (1) value is
 *   supported.").
 * - Anthropic: `top_k` yes (https://docs.anthropic.com/en/api/messages); no penalties, seed,
 *   logprobs or `n`; Opus 4.1 and 4.5+ not `temperature` with `top_p` (see above).
 * - Gemini: `topK`, penalties, seed, logprobs and `candidateCount` are generationConfig fields
 *   (https://ai.google.dev/api/generate-content#generationconfig).
 * - Other OpenAI-compatible providers: no rule; what the catalogue entry says.
 */
export function acceptedParams(family: ModelFamily, model: string, entry: CatalogueModel | undefined): AcceptedParams {
  const rules: AcceptedParams = { ...ALL };
  if (family === 'openai') {
    rules.top_k = false;
    if (entry?.reasoning === true) {
      rules.temperature = false;
      rules.top_p = false;
      rules.penalties = false;
      rules.logprobs = false;
    }
  } else if (family === 'anthropic') {
    rules.penalties = false;
    rules.seed = false;
    rules.logprobs = false;
    rules.n = false;
    if (claudeRefusesTemperatureWithTopP(model) || (entry && claudeRefusesTemperatureWithTopP(entry.id))) rules.temperature_with_top_p = false;
  }
  return { ...rules, ...definedOnly(entry?.params) };
}

function definedOnly(params: ModelParams | undefined): Partial<AcceptedParams> {
  if (!params) return {};
  const out: Partial<AcceptedParams> = {};
  for (const [key, value] of Object.entries(params) as [keyof AcceptedParams, boolean | undefined][]) if (value !== undefined) out[key] = value;
  return out;
}
