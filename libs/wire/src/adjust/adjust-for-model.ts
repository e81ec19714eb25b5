import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { ModelFacts } from '../models/model-catalogue';
import type { Adjustment } from '../hub/bridge-loss';
import type { ParameterRefusal, UpstreamFormat } from './adjustment';
import { nearestEffort } from './reasoning-effort-budgets';

export interface AdjustTarget {
  format: UpstreamFormat;
  /** What this channel refused by name for this model before: left out (or lowered to its limit) up front. */
  refused?: readonly ParameterRefusal[];
}

export interface AdjustedRequest {
  /** The request as given when nothing changed (no copy made). */
  request: ChatCompletionRequest;
  adjustments: readonly Adjustment[];
}

const NONE: readonly Adjustment[] = Object.freeze([]);

type Fields = Record<string, unknown>;

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** Builds the adjusted copy lazily: the request is copied only when a first change is made. */
class Changes {
  private copy: Fields | undefined;
  private list: Adjustment[] | undefined;

  constructor(private readonly original: ChatCompletionRequest) {}

  get(field: string): unknown {
    return (this.copy ?? (this.original as Fields))[field];
  }

  private writable(): Fields {
    this.copy ??= { ...(this.original as Fields) };
    return this.copy;
  }

  drop(field: string, reason: string): void {
    delete this.writable()[field];
    (this.list ??= []).push({ kind: 'dropped', field, reason });
  }

  clamp(field: string, from: number, to: number, reason: string): void {
    this.writable()[field] = to;
    (this.list ??= []).push({ kind: 'clamped', field, reason, from, to });
  }

  /** A value sent as another (`reasoning_effort xhigh->high`). */
  revalue(field: string, from: string, to: string, reason: string): void {
    this.writable()[field] = to;
    (this.list ??= []).push({ kind: 'mapped', field, reason, from, to });
  }

  /** A field sent under another name (`max_tokens->max_completion_tokens`). */
  rename(field: string, to: string, reason: string): void {
    const fields = this.writable();
    fields[to] = fields[field];
    delete fields[field];
    (this.list ??= []).push({ kind: 'mapped', field, reason, to });
  }

  result(): AdjustedRequest {
    if (!this.copy || !this.list) return { request: this.original, adjustments: NONE };
    return { request: this.copy as ChatCompletionRequest, adjustments: this.list };
  }
}

/**
 * An adapted (bridged) hub request made acceptable to the model it is sent to, from what the
 * catalogue knows of that model (issue 28). Rules, in order:
 *
 * - a field this channel refused by name for this model before: dropped;
 * - `reasoning_effort` on a model that does not reason: dropped; on one that lists its efforts,
 *   an effort it does not list becomes the nearest it does (OpenAI format);
 * - `top_k` where the model takes none (every OpenAI model): dropped;
 * - `temperature` and `top_p` together where the model takes only one (Claude Opus 4.1, 4.5+):
 *   `top_p` dropped, `temperature` kept;
 * - `temperature` / `top_p` other than the default 1 where the model takes none (OpenAI reasoning
 *   models): dropped; so are penalties and log probabilities it does not take, in the OpenAI
 *   format (the other formats' converters name what their API lacks themselves);
 * - `max_tokens` on an OpenAI reasoning model: sent as `max_completion_tokens`;
 * - output tokens over the model's limit: clamped to it.
 *
 * An unknown model (no catalogue entry) has only its family's rules. Nothing is copied and no
 * array made when nothing changes.
 */
export function adjustForModel(request: ChatCompletionRequest, facts: ModelFacts, target: AdjustTarget): AdjustedRequest {
  const changes = new Changes(request);
  const { params } = facts;
  if (target.refused) for (const refusal of target.refused) applyRefusal(changes, refusal);

  const effort = changes.get('reasoning_effort');
  if (isSet(effort)) {
    if (facts.reasoning === false) changes.drop('reasoning_effort', `${facts.model} does not reason`);
    else if (typeof effort === 'string' && target.format === 'openai') mapEffort(changes, effort, facts);
  }

  if (isSet(changes.get('top_k')) && !params.top_k) changes.drop('top_k', `${facts.model} takes no top_k`);

  if (isSet(changes.get('temperature')) && isSet(changes.get('top_p')) && !params.temperature_with_top_p) {
    changes.drop('top_p', `${facts.model} takes temperature or top_p, not both`);
  }
  for (const field of ['temperature', 'top_p'] as const) {
    const value = changes.get(field);
    if (isSet(value) && value !== 1 && !params[field]) changes.drop(field, `${facts.model} takes only the default ${field} (1)`);
  }
  if (target.format === 'openai') {
    if (!params.penalties) {
      for (const field of ['frequency_penalty', 'presence_penalty']) {
        const value = changes.get(field);
        if (isSet(value) && value !== 0) changes.drop(field, `${facts.model} takes no penalties`);
      }
    }
    if (!params.logprobs) {
      if (changes.get('logprobs') === true) changes.drop('logprobs', `${facts.model} returns no log probabilities`);
      if (isSet(changes.get('top_logprobs'))) changes.drop('top_logprobs', `${facts.model} returns no log probabilities`);
    }
    if (facts.family === 'openai' && facts.reasoning === true && isSet(changes.get('max_tokens'))) {
      if (isSet(changes.get('max_completion_tokens'))) changes.drop('max_tokens', `${facts.model} takes max_completion_tokens only`);
      else changes.rename('max_tokens', 'max_completion_tokens', `${facts.model} takes max_completion_tokens, not max_tokens`);
    }
  }

  const limit = facts.maxOutputTokens;
  if (limit !== undefined) {
    for (const field of OUTPUT_FIELDS) {
      const value = changes.get(field);
      if (typeof value === 'number' && value > limit) changes.clamp(field, value, limit, `${facts.model} writes at most ${limit} tokens`);
    }
  }
  return changes.result();
}

const OUTPUT_FIELDS = ['max_tokens', 'max_completion_tokens'] as const;

/** What the upstream refused before, done up front: the field left out, renamed or lowered to the upstream's limit. */
function applyRefusal(changes: Changes, { field, atMost }: ParameterRefusal): void {
  const reason = 'this channel refused it for this model before';
  if (atMost !== undefined) {
    for (const output of OUTPUT_FIELDS) {
      const value = changes.get(output);
      if (typeof value === 'number' && value > atMost) changes.clamp(output, value, atMost, reason);
    }
    return;
  }
  if (!isSet(changes.get(field))) return;
  // OpenAI reasoning models: "Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead."
  if (field === 'max_tokens' && !isSet(changes.get('max_completion_tokens'))) changes.rename(field, 'max_completion_tokens', reason);
  else changes.drop(field, reason);
}

/** An effort the model does not list → the nearest it does, the higher on a tie (OpenAI format only). */
function mapEffort(changes: Changes, effort: string, facts: ModelFacts): void {
  const listed = facts.reasoningOptions.find((option) => option.type === 'effort');
  if (!listed || listed.type !== 'effort' || listed.values.length === 0 || listed.values.includes(effort)) return;
  const best = nearestEffort(effort, listed.values);
  if (best !== undefined) changes.revalue('reasoning_effort', effort, best, `${facts.model} offers reasoning_effort ${listed.values.join(', ')}`);
}
