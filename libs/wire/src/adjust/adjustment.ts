import type { Adjustment } from '../hub/bridge-loss';


/** The dialect an adapted request reaches the upstream in: the channel type's chat format. */
export type UpstreamFormat = 'openai' | 'anthropic' | 'gemini';

/**
 * A hub field an upstream refused by name: left out the next time, or (`atMost`) lowered to the
 * upstream's own limit for it. `max_tokens` stands for the output bound whichever of
 * `max_tokens` / `max_completion_tokens` carried it.
 */
export interface ParameterRefusal {
  field: string;
  atMost?: number;
}

/** The response header that names what was adjusted. */
export const ADJUSTED_HEADER = 'x-relay-adjusted';

/** The header's longest value: a request has a handful of adjustments, never more text than this. */
const HEADER_LIMIT = 512;

/** Printable ASCII only (a header value must be), a value cut short. */
const headerSafe = (value: string | number): string => String(value).replace(/[^\x20-\x7e]/g, '?').slice(0, 40);

function renderOne(adjustment: Adjustment): string {
  const { kind, field, from, to } = adjustment;
  if (kind === 'dropped') return `${field} dropped`;
  // `max_tokens->max_completion_tokens` (renamed), `reasoning_effort xhigh->high`, `max_tokens 32000->16384`.
  if (from === undefined) return `${field}->${headerSafe(to ?? '')}`;
  return `${field} ${headerSafe(from)}->${headerSafe(to ?? '')}`;
}

/** `top_k dropped; max_tokens 32000->16384`: one short ASCII line, each field once. */
export function renderAdjustments(adjustments: readonly Adjustment[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const adjustment of adjustments) {
    const part = renderOne(adjustment);
    if (seen.has(part)) continue;
    seen.add(part);
    parts.push(part);
  }
  const line = parts.join('; ');
  return line.length <= HEADER_LIMIT ? line : `${line.slice(0, HEADER_LIMIT - 3)}...`;
}
