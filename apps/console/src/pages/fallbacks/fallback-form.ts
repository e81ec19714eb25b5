import {
  DEFAULT_FALLBACK_TRIGGERS,
  FallbackRuleCreateSchema,
  FallbackRuleUpdateSchema,
  FallbackTriggerSchema,
  type FallbackRule,
  type FallbackRuleCreate,
  type FallbackRuleUpdate,
  type FallbackTrigger,
} from '@chat-relay/contract';
import { formIssues, type FormOutcome } from '../../api/form-issues';
import { splitList } from '../tokens/token-policy';

/** A fallback rule as its form holds it. */
export interface FallbackFormValues {
  /** A model name or glob (`claude-*`). */
  model: string;
  /** In order, one per line (or comma separated): the first one tried first. */
  fallbacks: string;
  triggers: FallbackTrigger[];
  enabled: boolean;
}

export const TRIGGERS = FallbackTriggerSchema.options;

/** Each failure class as the operator reads it (the checkboxes' labels). */
export const TRIGGER_LABELS: Readonly<Record<FallbackTrigger, string>> = {
  rate_limited: 'Rate limited (429)',
  upstream_error: 'Upstream error or overloaded (5xx)',
  timeout: 'Timeout',
  no_channel: 'No channel available',
  context_length: 'Context window exceeded',
  content_filtered: 'Content filtered',
};

const LABELS = { model: 'Model or glob', fallbacks: 'Fallback models', triggers: 'Triggers', enabled: 'Enabled' };

export const emptyFallbackForm = (): FallbackFormValues => ({ model: '', fallbacks: '', triggers: [...DEFAULT_FALLBACK_TRIGGERS], enabled: true });

export const fallbackFormFrom = (rule: FallbackRule): FallbackFormValues => ({
  model: rule.model,
  fallbacks: rule.fallbacks.join('\n'),
  triggers: [...rule.triggers],
  enabled: rule.enabled,
});

/** The triggers in the enum's order, so a body does not depend on the order they were ticked. */
const orderedTriggers = (triggers: readonly FallbackTrigger[]): FallbackTrigger[] => TRIGGERS.filter((trigger) => triggers.includes(trigger));

/** The chain as typed, in order, without blanks or repeats; the rule's own model cannot be its fallback. */
function chainOf(values: FallbackFormValues): { value: string[] } | { error: string } {
  const chain = splitList(values.fallbacks);
  if (chain.length === 0) return { error: 'Fallback models: name at least one model to fall back to' };
  if (chain.includes(values.model.trim())) return { error: `Fallback models: "${values.model.trim()}" cannot fall back to itself` };
  return { value: chain };
}

/** `POST /api/fallbacks` body, checked against the contract. */
export function toFallbackCreate(values: FallbackFormValues): FormOutcome<FallbackRuleCreate> {
  const chain = chainOf(values);
  if ('error' in chain) return { ok: false, errors: [chain.error] };
  if (values.triggers.length === 0) return { ok: false, errors: ['Triggers: tick at least one failure that falls back'] };
  const parsed = FallbackRuleCreateSchema.safeParse({ model: values.model, fallbacks: chain.value, triggers: orderedTriggers(values.triggers), enabled: values.enabled });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS, 'model') };
}

/** `PATCH /api/fallbacks/{id}` body: what changed (the chain's order counts). */
export function toFallbackUpdate(values: FallbackFormValues, original: FallbackRule): FormOutcome<FallbackRuleUpdate> {
  const chain = chainOf(values);
  if ('error' in chain) return { ok: false, errors: [chain.error] };
  if (values.triggers.length === 0) return { ok: false, errors: ['Triggers: tick at least one failure that falls back'] };
  const triggers = orderedTriggers(values.triggers);
  const body: Record<string, unknown> = {};
  if (values.model.trim() !== original.model) body['model'] = values.model;
  if (chain.value.join('\n') !== original.fallbacks.join('\n')) body['fallbacks'] = chain.value;
  if (triggers.join() !== orderedTriggers(original.triggers).join()) body['triggers'] = triggers;
  if (values.enabled !== original.enabled) body['enabled'] = values.enabled;
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = FallbackRuleUpdateSchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS, 'model') };
}
