import type { ServerResponse } from 'node:http';
import { readDirectivesOf } from '../faults';
import { sendJson } from '../http-io';
import { errorForStatus } from '../openai-error';
import { sendJsonAnswer } from '../send-json-answer';
import type { SimFault } from '../sim-types';

/** What every endpoint beside chat needs of the simulator: the fault queue and the default latency. */
export interface EndpointFaultContext {
  defaultLatencyMsPerToken: number;
  /** The next fault queued with `failNext`, removed from the queue. */
  takeQueuedFault(): SimFault | undefined;
}

/** How one call is played: the fault (a queued one first) and the latency it asked for. */
export interface EndpointPlan {
  fault: SimFault | undefined;
  /** The request's own latency directive, undefined when it set none. */
  latencyDirective: number | undefined;
  latencyMsPerToken: number;
}

/** How a provider words the errors faults play. */
export interface ErrorDialect {
  forStatus(status: number): { status: number; body: unknown };
  /** What a `stream-error` fault answers when there is no stream to break. */
  unstreamed: { status: number; body: unknown };
}

export const openAiDialect: ErrorDialect = {
  forStatus: (status) => ({ status, body: errorForStatus(status) }),
  unstreamed: { status: 500, body: errorForStatus(500) },
};

export type PlanResult = { kind: 'plan'; plan: EndpointPlan } | { kind: 'invalid'; param: string; message: string };

/**
 * Reads `x_sim` and the `[sim:…]` markers in `text` (the prompt, the inputs), then takes the
 * queued fault: called once the request is known valid, so a refused request consumes none.
 */
export function planEndpointCall(xSim: unknown, text: string, textParam: string, context: EndpointFaultContext): PlanResult {
  const read = readDirectivesOf(xSim, text, textParam);
  if (read.kind === 'invalid') return read;
  const { fault, latencyMsPerToken } = read.directives;
  return {
    kind: 'plan',
    plan: {
      fault: context.takeQueuedFault() ?? fault,
      latencyDirective: latencyMsPerToken,
      latencyMsPerToken: latencyMsPerToken ?? context.defaultLatencyMsPerToken,
    },
  };
}

/** The plan of a call that carries no directive (a poll, a download): only a fault queued with `failNext`. */
export function queuedFaultPlan(context: EndpointFaultContext): EndpointPlan {
  return { fault: context.takeQueuedFault(), latencyDirective: undefined, latencyMsPerToken: context.defaultLatencyMsPerToken };
}

/** A fault answered instead of the call (status, timeout, stream-error): as far as the caller knows, nothing happened. */
export function replacesAnswer(fault: SimFault | undefined): boolean {
  return fault?.kind === 'status' || fault?.kind === 'timeout' || fault?.kind === 'stream-error';
}

/**
 * Plays a fault that replaces the whole answer: a status (in the provider's error shape),
 * `timeout` (never answers; the socket stays open until the client gives up), `stream-error`
 * where nothing streams. True when the fault answered — the caller then sends nothing.
 */
export function playFaultInsteadOfAnswer(res: ServerResponse, plan: EndpointPlan, dialect: ErrorDialect): boolean {
  const { fault } = plan;
  if (fault?.kind === 'status') {
    const { status, body } = dialect.forStatus(fault.status);
    sendJson(res, status, body);
    return true;
  }
  if (fault?.kind === 'timeout') return true;
  if (fault?.kind === 'stream-error') {
    sendJson(res, dialect.unstreamed.status, dialect.unstreamed.body);
    return true;
  }
  return false;
}

/**
 * Sends a non-streamed answer (JSON unless `contentType` says otherwise) after
 * `latencyMsPerToken × work`, or plays the plan's fault: `cut` drops the connection halfway,
 * `malformed` sends half of the body.
 */
export async function sendEndpointAnswer(
  res: ServerResponse,
  plan: EndpointPlan,
  dialect: ErrorDialect,
  answer: { body: string; work: number; contentType?: string },
): Promise<void> {
  if (playFaultInsteadOfAnswer(res, plan, dialect)) return;
  const timing = { completionTokens: answer.work, latencyMsPerToken: plan.latencyMsPerToken };
  await sendJsonAnswer(res, answer.body, timing, plan.fault, answer.contentType);
}
