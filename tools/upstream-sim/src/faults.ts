import type { ChatCompletionRequest } from '@chat-relay/contract';
import { lastUserText } from './message-text';
import type { SimFault } from './sim-types';

/** How one request asked to be treated: a fault to play and a latency override. */
export interface RequestDirectives {
  fault: SimFault | undefined;
  latencyMsPerToken: number | undefined;
}

export type DirectivesResult =
  | { kind: 'directives'; directives: RequestDirectives }
  | { kind: 'invalid'; param: string; message: string };

const faultSyntax = '"status:<400-599>", "timeout", "cut", "malformed" or "stream-error"';
const markerPattern = /\[sim:(fault|latency)=([^\]\s]*)\]/gi;

/** Reads `status:503`, `timeout`, `cut`, `malformed` or `stream-error`; undefined otherwise. */
export function parseFaultSpec(spec: string): SimFault | undefined {
  const trimmed = spec.trim().toLowerCase();
  switch (trimmed) {
    case 'timeout':
    case 'cut':
    case 'malformed':
    case 'stream-error':
      return { kind: trimmed };
  }
  const status = /^status:(\d{3})$/.exec(trimmed);
  const code = status ? Number(status[1]) : NaN;
  return code >= 400 && code <= 599 ? { kind: 'status', status: code } : undefined;
}

function parseLatency(value: unknown): number | undefined {
  const latency = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof latency === 'number' && Number.isFinite(latency) && latency >= 0 ? latency : undefined;
}

function invalid(param: string, message: string): DirectivesResult {
  return { kind: 'invalid', param, message };
}

/** `[sim:fault=status:500]` and `[sim:latency=50]` in the last user message. */
function directivesFromMarkers(request: ChatCompletionRequest): DirectivesResult {
  const directives: RequestDirectives = { fault: undefined, latencyMsPerToken: undefined };
  for (const [, name, value = ''] of lastUserText(request.messages).matchAll(markerPattern)) {
    if (name?.toLowerCase() === 'fault') {
      directives.fault = parseFaultSpec(value);
      if (!directives.fault) return invalid('messages', `Unknown [sim:fault=${value}]; use ${faultSyntax}.`);
    } else {
      directives.latencyMsPerToken = parseLatency(value);
      if (directives.latencyMsPerToken === undefined) {
        return invalid('messages', `[sim:latency=${value}] must be a non-negative number of milliseconds.`);
      }
    }
  }
  return { kind: 'directives', directives };
}

/** `"x_sim": {"fault": "status:503", "latency_ms_per_token": 50}`, a body field the relay forwards. */
function directivesFromBody(xSim: unknown): DirectivesResult {
  const directives: RequestDirectives = { fault: undefined, latencyMsPerToken: undefined };
  if (xSim === undefined) return { kind: 'directives', directives };
  if (typeof xSim !== 'object' || xSim === null || Array.isArray(xSim)) {
    return invalid('x_sim', 'x_sim must be an object like {"fault": "status:503", "latency_ms_per_token": 50}.');
  }
  const fault: unknown = 'fault' in xSim ? xSim.fault : undefined;
  if (fault !== undefined && fault !== null) {
    directives.fault = typeof fault === 'string' ? parseFaultSpec(fault) : undefined;
    if (!directives.fault) return invalid('x_sim.fault', `x_sim.fault must be ${faultSyntax}.`);
  }
  const latency: unknown = 'latency_ms_per_token' in xSim ? xSim.latency_ms_per_token : undefined;
  if (latency !== undefined && latency !== null) {
    directives.latencyMsPerToken = parseLatency(latency);
    if (directives.latencyMsPerToken === undefined) {
      return invalid('x_sim.latency_ms_per_token', 'x_sim.latency_ms_per_token must be a non-negative number.');
    }
  }
  return { kind: 'directives', directives };
}

/** Directives of one request; the body's `x_sim` wins over markers in the user's text. */
export function readDirectives(request: ChatCompletionRequest): DirectivesResult {
  const fromBody = directivesFromBody(request['x_sim']);
  if (fromBody.kind === 'invalid') return fromBody;
  const fromMarkers = directivesFromMarkers(request);
  if (fromMarkers.kind === 'invalid') return fromMarkers;
  return {
    kind: 'directives',
    directives: {
      fault: fromBody.directives.fault ?? fromMarkers.directives.fault,
      latencyMsPerToken: fromBody.directives.latencyMsPerToken ?? fromMarkers.directives.latencyMsPerToken,
    },
  };
}
