/**
 * The one table of thinking budgets the relay sends for a hub `reasoning_effort` to a provider
 * that thinks by token budget (Anthropic `thinking.budget_tokens`, Gemini 2.5 `thinkingBudget`).
 * Each budget reads back as the same effort under the inverse mapping of `/v1/messages`
 * (map-thinking-to-reasoning-effort.ts: below 4096 low, below 16384 medium, else high).
 * `none` sends no budget; `minimal` is the provider's smallest (Anthropic 1024, Gemini 0 = off).
 */
export const EFFORT_BUDGETS = { low: 1024, medium: 8192, high: 24576, xhigh: 32768 } as const;

/** The same table, looked up by a caller's effort name. */
export const REASONING_EFFORT_BUDGETS: Readonly<Record<string, number>> = EFFORT_BUDGETS;

/** OpenAI's effort names, lowest first: an effort a model does not list is sent as the nearest it does. */
export const EFFORT_ORDER: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/** The listed effort nearest to `effort`, the higher on a tie; undefined when none can be ranked. */
export function nearestEffort(effort: string, listed: readonly string[]): string | undefined {
  if (listed.includes(effort)) return effort;
  const rank = EFFORT_ORDER.indexOf(effort);
  if (rank < 0) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const value of listed) {
    const at = EFFORT_ORDER.indexOf(value);
    if (at < 0) continue;
    const distance = Math.abs(at - rank);
    if (distance < bestDistance || (distance === bestDistance && at > rank)) {
      best = value;
      bestDistance = distance;
    }
  }
  return best;
}
