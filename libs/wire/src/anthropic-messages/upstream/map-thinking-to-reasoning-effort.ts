import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import type { AnthropicThinkingConfig } from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';

/** Budgets below these read as `low`, then `medium`; anything larger as `high`. */
export const LOW_EFFORT_BUDGET_BELOW = 4096;
export const MEDIUM_EFFORT_BUDGET_BELOW = 16384;

/** The efforts Chat Completions and Messages share by name. */
const SHARED_EFFORTS: ReadonlySet<string> = new Set(['low', 'medium', 'high']);

function effortOfBudget(budgetTokens: number): string {
  if (budgetTokens < LOW_EFFORT_BUDGET_BELOW) return 'low';
  if (budgetTokens < MEDIUM_EFFORT_BUDGET_BELOW) return 'medium';
  return 'high';
}

/**
 * `thinking` and `output_config.effort` → the hub's `reasoning_effort`. Documented mapping:
 * thinking disabled (or absent, with no effort) → none sent; `output_config.effort`
 * low/medium/high wins when present, and xhigh/max read as `high`, the most Chat Completions
 * names everywhere; otherwise enabled thinking maps its `budget_tokens` (below 4096 → low,
 * below 16384 → medium, else high), adaptive → medium, between_tools → medium.
 */
export function mapThinkingToReasoningEffort(
  thinking: AnthropicThinkingConfig | undefined,
  effort: string | null | undefined,
  notes: BridgeNotes,
): string | undefined {
  if (thinking?.type === 'disabled') return undefined;
  if (effort !== undefined && effort !== null) {
    if (SHARED_EFFORTS.has(effort)) return effort;
    notes.lose(MESSAGES_TO_CHAT.rules.effortAbove, { from: effort, to: 'high' });
    return 'high';
  }
  switch (thinking?.type) {
    case undefined:
      return undefined;
    case 'enabled':
      return effortOfBudget(thinking.budget_tokens);
    case 'adaptive':
      return 'medium';
    case 'between_tools':
      notes.lose(MESSAGES_TO_CHAT.rules.thinkingBetweenTools, { from: 'between_tools', to: 'medium' });
      return 'medium';
    default: {
      const unhandled: never = thinking;
      throw new Error(`unhandled thinking ${JSON.stringify(unhandled)}`);
    }
  }
}
