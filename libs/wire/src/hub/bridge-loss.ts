/**
 * What a bridge could not carry exactly, as data (issue 27): a field left out (`dropped`), sent
 * as something else (`mapped`), or — for a model's own limits (issue 28) — lowered to them
 * (`clamped`). Bridge losses and model adjustments are one type: logged once per request with
 * the request id, and the model's adjustments named in the `x-relay-adjusted` header.
 */
export interface Adjustment {
  kind: 'dropped' | 'mapped' | 'clamped';
  /** The field as the caller (bridge losses) or the hub (model adjustments) names it. */
  field: string;
  /** Why, for the log. */
  reason: string;
  from?: string | number;
  to?: string | number;
}

/**
 * One loss a bridge between two dialects can have, as listed in docs/guides/bridge-fidelity.md:
 * `field` names it there, a `*` standing for the part the request supplies (a field's name, a
 * tool's index).
 */
export interface LossRule {
  kind: 'dropped' | 'mapped';
  field: string;
  reason: string;
}

/** Every loss of one bridge (a caller dialect into the hub, or the hub out to a provider). */
export interface LossTable<K extends string = string> {
  /** The section heading of docs/guides/bridge-fidelity.md the rules are listed under. */
  pair: string;
  rules: Readonly<Record<K, LossRule>>;
}

export const lossTable = <K extends string>(pair: string, rules: Record<K, LossRule>): LossTable<K> => ({ pair, rules });

/** What the request itself supplies to a rule: the actual field path, and the value it had or got. */
export interface LossDetail {
  field?: string;
  from?: string | number;
  to?: string | number;
}

/** The adjustment a rule makes for one request. */
export function lossOf(rule: LossRule, detail: LossDetail = {}): Adjustment {
  const loss: Adjustment = { kind: rule.kind, field: detail.field ?? rule.field, reason: rule.reason };
  if (detail.from !== undefined) loss.from = detail.from;
  if (detail.to !== undefined) loss.to = detail.to;
  return loss;
}
