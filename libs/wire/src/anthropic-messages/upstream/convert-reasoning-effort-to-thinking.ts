import { ANTHROPIC_MIN_THINKING_BUDGET } from '@chat-relay/contract';
import { REASONING_EFFORT_BUDGETS, nearestEffort } from '../../adjust/reasoning-effort-budgets';
import { invalidRequest } from '../../errors/relay-error';
import type { ModelFacts } from '../../models/model-catalogue';
import type { AnthropicRequest } from '../anthropic-api';
import { lossOf, type Adjustment } from '../../hub/bridge-loss';
import { CHAT_TO_ANTHROPIC } from './chat-to-anthropic-losses';

/** What of the catalogue's facts the mapping reads: how the model thinks, and its output limit. */
export type ThinkingFacts = Pick<ModelFacts, 'reasoningOptions' | 'maxOutputTokens'>;

/** With thinking on, Anthropic takes `top_p` from 0.95 to 1 only. */
const THINKING_MIN_TOP_P = 0.95;

type ThinkingStyle = { kind: 'budget'; min: number; max: number | undefined } | { kind: 'adaptive'; efforts: readonly string[] };

/**
 * How the model is asked to think, from the catalogue: a budget when it lists `budget_tokens`
 * (Claude 3.7 to 4.6), adaptive with an effort when it lists efforts only (Opus 4.7 on, which
 * refuse a budget), a budget when nobody says (an unknown model).
 */
function styleOf(facts: ThinkingFacts | undefined): ThinkingStyle {
  const options = facts?.reasoningOptions ?? [];
  const budget = options.find((option) => option.type === 'budget_tokens');
  if (budget?.type === 'budget_tokens') return { kind: 'budget', min: Math.max(budget.min ?? 0, ANTHROPIC_MIN_THINKING_BUDGET), max: budget.max };
  const effort = options.find((option) => option.type === 'effort');
  if (effort?.type === 'effort' && effort.values.length > 0) return { kind: 'adaptive', efforts: effort.values };
  return { kind: 'budget', min: ANTHROPIC_MIN_THINKING_BUDGET, max: undefined };
}

const forcesToolUse = (body: AnthropicRequest): boolean => body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';

/**
 * The request continues a tool-use turn (its last user turn answers tool uses) whose assistant
 * turn came back without its thinking: Anthropic refuses thinking then ("a final `assistant`
 * message must start with a thinking block"), so that request goes without it — as when a caller
 * drops the `thinking_blocks` / reasoning items the relay gave it.
 */
function continuesTurnWithoutThinking(body: AnthropicRequest): boolean {
  const last = body.messages.at(-1);
  if (last?.role !== 'user' || !last.content.some((block) => block.type === 'tool_result')) return false;
  const turn = body.messages.at(-2);
  const first = turn?.role === 'assistant' ? turn.content[0]?.type : undefined;
  return first !== undefined && first !== 'thinking' && first !== 'redacted_thinking';
}

/** Temperature, top_k and top_p as thinking takes them (Anthropic's extended-thinking compatibility rules). */
function fitSamplers(body: AnthropicRequest, warnings: Adjustment[]): void {
  if (body.temperature !== undefined && body.temperature !== 1) {
    warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.thinkingTemperature, { from: body.temperature }));
    delete body.temperature;
  }
  if (body.top_k !== undefined) {
    warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.thinkingTopK, { from: body.top_k }));
    delete body.top_k;
  }
  if (body.top_p !== undefined && body.top_p < THINKING_MIN_TOP_P) {
    warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.thinkingTopP, { from: body.top_p, to: THINKING_MIN_TOP_P }));
    body.top_p = THINKING_MIN_TOP_P;
  }
}

function budgetOf(effort: string, style: Extract<ThinkingStyle, { kind: 'budget' }>): number {
  const budget = effort === 'minimal' ? style.min : REASONING_EFFORT_BUDGETS[effort];
  if (budget === undefined) {
    throw invalidRequest(
      `reasoning_effort '${effort}' cannot be sent to an Anthropic channel; use none, minimal, ${Object.keys(REASONING_EFFORT_BUDGETS).join(', ')}.`,
      'reasoning_effort',
      'unsupported_value',
    );
  }
  const floored = Math.max(budget, style.min);
  return style.max !== undefined ? Math.min(floored, style.max) : floored;
}

/**
 * A budget below `max_tokens`, as Anthropic requires: when the caller's bound leaves no room,
 * `max_tokens` is raised by the budget (the answer keeps what the caller gave it) up to the
 * model's output limit, and the budget lowered under that limit if it must. Undefined when the
 * limit leaves no room for the smallest budget.
 */
function fitBudget(body: AnthropicRequest, wanted: number, min: number, limit: number | undefined, warnings: Adjustment[]): number | undefined {
  if (body.max_tokens > wanted) return wanted;
  const raised = limit !== undefined ? Math.min(wanted + body.max_tokens, limit) : wanted + body.max_tokens;
  const budget = Math.min(wanted, raised - 1);
  if (budget < min) return undefined;
  warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.thinkingMaxTokens, { from: body.max_tokens, to: raised }));
  body.max_tokens = raised;
  return budget;
}

/**
 * The hub's `reasoning_effort` → Anthropic thinking, on the request body being built. One table
 * (docs/guides/model-adjustments.md): none → no thinking (Anthropic's default); on a model that
 * thinks by budget, `thinking: {type: "enabled", budget_tokens}` with the budgets of
 * REASONING_EFFORT_BUDGETS (minimal → the model's smallest, 1024), `max_tokens` raised above the
 * budget when needed; on a model that lists efforts only, `thinking: {type: "adaptive", display:
 * "summarized"}` and `output_config.effort`, the nearest effort the model lists. Thinking is not
 * sent when the tool choice forces a tool (Anthropic refuses both: "Thinking may not be enabled
 * when tool_choice forces tool use"); with it, temperature other than 1 and top_k are left out and
 * top_p raised to 0.95. Every change is a warning.
 */
export function convertReasoningEffortToThinking(
  body: AnthropicRequest,
  effort: string | null | undefined,
  facts: ThinkingFacts | undefined,
  warnings: Adjustment[],
): void {
  if (effort === undefined || effort === null || effort === 'none') return;
  if (continuesTurnWithoutThinking(body)) return void warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.effortUnsignedTurn, { from: effort }));
  const style = styleOf(facts);
  if (style.kind === 'adaptive') {
    const sent = nearestEffort(effort, style.efforts);
    if (sent === undefined) {
      throw invalidRequest(
        `reasoning_effort '${effort}' cannot be sent to this Anthropic model; use ${style.efforts.join(', ')}.`,
        'reasoning_effort',
        'unsupported_value',
      );
    }
    if (sent !== effort) warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.effortToNearest, { from: effort, to: sent }));
    body.thinking = { type: 'adaptive', display: 'summarized' };
    body.output_config = { effort: sent };
    fitSamplers(body, warnings);
    return;
  }
  const wanted = budgetOf(effort, style);
  if (forcesToolUse(body)) return void warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.effortForcedTool, { from: effort }));
  const budget = fitBudget(body, wanted, style.min, facts?.maxOutputTokens, warnings);
  if (budget === undefined) {
    warnings.push(lossOf(CHAT_TO_ANTHROPIC.rules.effortNoRoom, { from: effort }));
    return;
  }
  body.thinking = { type: 'enabled', budget_tokens: budget };
  fitSamplers(body, warnings);
}
