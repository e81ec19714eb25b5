import type { AttemptOutcome } from '../pipeline/route-with-retries';

/** What became of one upstream attempt, as a label value (a fixed set). */
export type AttemptOutcomeLabel =
  | 'success'
  | 'endpoint_missing'
  | 'key_rejected'
  | 'caller_gone'
  | 'timeout'
  | 'upstream_error'
  | 'request_error';

export const ATTEMPT_OUTCOMES: readonly AttemptOutcomeLabel[] = [
  'success',
  'endpoint_missing',
  'key_rejected',
  'caller_gone',
  'timeout',
  'upstream_error',
  'request_error',
];

/**
 * `upstream_error`: the channel's fault (5xx, 429, a cut connection); `request_error`: the
 * upstream refused the request itself (a 4xx about it), which says nothing of the channel.
 */
export function attemptOutcomeLabel(outcome: AttemptOutcome<unknown>): AttemptOutcomeLabel {
  if (outcome.ok) return 'success';
  if (outcome.endpointMissing) return 'endpoint_missing';
  if (outcome.keyRejected) return 'key_rejected';
  if (outcome.error.status === 499) return 'caller_gone';
  if (outcome.firstByteTimeout || outcome.error.status === 504) return 'timeout';
  return outcome.channelFault ? 'upstream_error' : 'request_error';
}
