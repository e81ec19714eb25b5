import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { AnswerContent } from './build-chat-completion';
import { decideAnswer, withToolPreamble } from './decide-answer';
import { readDirectives } from './faults';
import type { SimFault } from './sim-types';

export interface ChatContext {
  defaultLatencyMsPerToken: number;
  /** The next fault queued with `failNext`, removed from the queue. */
  takeQueuedFault(): SimFault | undefined;
}

export type ProviderAnswer =
  | { kind: 'invalid'; param: string; message: string }
  | { kind: 'answer'; plan: AnswerContent; fault: SimFault | undefined; latencyMsPerToken: number };

/**
 * The one brain behind every wire format: directives (`x_sim`, `[sim:…]` markers), the
 * deterministic answer, and the fault to play — a queued one first, so `failNext` wins.
 */
export function planProviderAnswer(request: ChatCompletionRequest, context: ChatContext): ProviderAnswer {
  const directives = readDirectives(request);
  if (directives.kind === 'invalid') return directives;
  const decided = decideAnswer(request);
  if (decided.kind === 'invalid') return decided;
  const plan = directives.directives.toolPreamble ? withToolPreamble(decided) : decided;
  if (plan.kind === 'invalid') return plan;
  return {
    kind: 'answer',
    plan,
    fault: context.takeQueuedFault() ?? directives.directives.fault,
    latencyMsPerToken: directives.directives.latencyMsPerToken ?? context.defaultLatencyMsPerToken,
  };
}
