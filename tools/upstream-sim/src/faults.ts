import type { ChatCompletionRequest } from '@chat-relay/contract';
import { lastUserText } from './message-text';
import type { SimFault } from './sim-types';

/** How one request asked to be treated: a fault to play, a latency override, a tool preamble. */
export interface RequestDirectives {
  fault: SimFault | undefined;
  latencyMsPerToken: number | undefined;
  /** Say a short text before calling tools (what Claude often does), so mixed answers are testable. */
  toolPreamble?: boolean | undefined;
}

export type DirectivesResult =
  | { kind: 'directives'; directives: RequestDirectives }
  | { kind: 'invalid'; param: string; message: string };

const faultSyntax = '"status:<400-599>", "context-length", "timeout", "cut", "malformed" or "stream-error"';
const markerPattern = /\[sim:(fault|latency|preamble)=([^\]\s]*)\]/gi;

/** Reads `status:503`, `context-length`, `timeout`, `cut`, `malformed` or `stream-error`; undefined otherwise. */
export function parseFaultSpec(spec: string): SimFault | undefined {
  const trimmed = spec.trim().toLowerCase();
  switch (trimmed) {
    case 'timeout':
    case 'cut':
    case 'malformed':
    case 'stream-error':
      return { kind: trimmed };
    case 'context-length':
      return { kind: 'status', status: 400, contextLength: true };
  }
  const status = /^status:(\d{3})$/.exec(trimmed);
  const code = status ? Number(status[1]) : NaN;
  return code >= 400 && code <= 599 ? { kind: 'status', status: code } : undefined;
}

function parsePreamble(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (word === 'on' || word === 'true') return true;
  if (word === 'off' || word === 'false') return false;
  return undefined;
}

function parseLatency(value: unknown): number | undefined {
  const latency = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof latency === 'number' && Number.isFinite(latency) && latency >= 0 ? latency : undefined;
}

function invalid(param: string, message: string): DirectivesResult {
  return { kind: 'invalid', param, message };
}

/**
 * `[sim:fault=status:500]`, `[sim:latency=50]` and `[sim:preamble=on]` in `text` (the last user
 * message, or an endpoint's prompt or inputs); `param` names that field when one is invalid.
 */
function directivesFromMarkers(text: string, param: string): DirectivesResult {
  const directives: RequestDirectives = { fault: undefined, latencyMsPerToken: undefined };
  for (const [, name, value = ''] of text.matchAll(markerPattern)) {
    const kind = name?.toLowerCase();
    if (kind === 'fault') {
      directives.fault = parseFaultSpec(value);
      if (!directives.fault) return invalid(param, `Unknown [sim:fault=${value}]; use ${faultSyntax}.`);
    } else if (kind === 'preamble') {
      directives.toolPreamble = parsePreamble(value);
      if (directives.toolPreamble === undefined) return invalid(param, `[sim:preamble=${value}] must be on or off.`);
    } else {
      directives.latencyMsPerToken = parseLatency(value);
      if (directives.latencyMsPerToken === undefined) {
        return invalid(param, `[sim:latency=${value}] must be a non-negative number of milliseconds.`);
      }
    }
  }
  return { kind: 'directives', directives };
}

/** `"x_sim": {"fault": "status:503", "latency_ms_per_token": 50, "preamble": true}`, a body field. */
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
  const preamble: unknown = 'preamble' in xSim ? xSim.preamble : undefined;
  if (preamble !== undefined && preamble !== null) {
    directives.toolPreamble = parsePreamble(preamble);
    if (directives.toolPreamble === undefined) return invalid('x_sim.preamble', 'x_sim.preamble must be a boolean.');
  }
  return { kind: 'directives', directives };
}

/** Directives of one request; the body's `x_sim` wins over markers in the user's text. */
export function readDirectives(request: ChatCompletionRequest): DirectivesResult {
  return readDirectivesOf(request['x_sim'], lastUserText(request.messages), 'messages');
}

/**
 * Directives from an `x_sim` value and the markers in `text` (`x_sim` wins): what every
 * endpoint beside chat reads, `text` being its prompt or inputs and `textParam` their field.
 */
export function readDirectivesOf(xSim: unknown, text: string, textParam: string): DirectivesResult {
  const fromBody = directivesFromBody(xSim);
  if (fromBody.kind === 'invalid') return fromBody;
  const fromMarkers = directivesFromMarkers(text, textParam);
  if (fromMarkers.kind === 'invalid') return fromMarkers;
  return {
    kind: 'directives',
    directives: {
      fault: fromBody.directives.fault ?? fromMarkers.directives.fault,
      latencyMsPerToken: fromBody.directives.latencyMsPerToken ?? fromMarkers.directives.latencyMsPerToken,
      toolPreamble: fromBody.directives.toolPreamble ?? fromMarkers.directives.toolPreamble,
    },
  };
}
