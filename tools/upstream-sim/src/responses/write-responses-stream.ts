import type { ServerResponse } from 'node:http';
import { clampGoodFrames, writeEventStream, type StreamFault, type StreamOptions } from '../write-event-stream';
import { frameOf } from './build-response-events';
import type { ResponseBody, ResponseStreamEvent } from './responses-wire';

/** How many events go out before a fault: a cut lands after the first text delta, the others after `response.in_progress`. */
function goodEventsBefore(fault: StreamFault, total: number): number {
  return clampGoodFrames(fault.kind === 'cut' ? 5 : 2, total);
}

/**
 * The `error` event of a `stream-error` fault, then `response.failed`, as the recorded
 * insufficient-quota stream has them. The error's fields are written both at the top level
 * (the OpenAPI `ResponseErrorEvent`) and nested in `error` (what the API actually sent).
 */
function errorFrames(failed: ResponseBody, sequenceNumber: number): string {
  const error = { type: 'server_error', code: 'server_error', message: failed.error?.message ?? 'server error', param: null };
  const { type: _type, ...fields } = error;
  return (
    frameOf({ type: 'error', ...fields, error }, sequenceNumber) +
    frameOf({ type: 'response.failed', response: failed }, sequenceNumber + 1)
  );
}

/**
 * Writes a Responses stream: `event:` + `data:` frames with increasing `sequence_number`s,
 * `latencyMsPerToken` apart — or plays the fault: `cut` drops the connection without a
 * terminal event, `malformed` sends a delta whose data is not JSON, `stream-error` sends
 * `error` and `response.failed`.
 */
export function writeResponsesStream(
  res: ServerResponse,
  events: readonly ResponseStreamEvent[],
  failed: ResponseBody,
  options: StreamOptions,
): Promise<void> {
  const frames = events.map((event, index) => frameOf(event, index));
  const faultAt = options.fault ? goodEventsBefore(options.fault, frames.length) : frames.length;
  return writeEventStream(
    res,
    {
      frames,
      goodFramesBeforeFault: (fault) => goodEventsBefore(fault, frames.length),
      malformedFrame: 'event: response.output_text.delta\ndata: {not json\n\n',
      errorFrame: errorFrames(failed, faultAt),
    },
    options,
  );
}
