import type { Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { ChatRelayResult } from '../pipeline/relay-chat-completion';
import { traceOf } from '../pipeline/run-pipeline';
import { SSE_HEADERS } from '../pipeline/stream/sse';

/** Listed once: Object.entries on every stream showed in the bench's profile. */
const SSE_HEADER_ENTRIES = Object.entries(SSE_HEADERS);

/**
 * A relayed answer as a route hands it to ts-rest. Text already serialised (an upstream's own
 * bytes) goes out as bytes: the contract declares these answers with an explicit content type,
 * so ts-rest sends them without serialising again. A stream body is piped as it comes. Either
 * way the contract types the answer's JSON form, `T`.
 */
export function relayAnswer<T>(res: Response, result: ChatRelayResult): { status: 200; body: T } {
  if (result.kind === 'json') {
    const trace = traceOf(res);
    trace.ttfbMs = performance.now() - trace.startedAt;
    const { text } = result;
    const answer = text === undefined ? result.body : typeof text === 'string' ? Buffer.from(text) : text;
    return { status: 200, body: answer as unknown as T };
  }
  for (const [name, value] of SSE_HEADER_ENTRIES) res.setHeader(name, value);
  return { status: 200, body: result.body as unknown as T };
}
