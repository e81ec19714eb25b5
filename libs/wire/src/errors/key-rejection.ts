import { upstreamError } from './relay-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';

/**
 * An upstream 401/403 (SPEC §6): the key is disabled and another tried — unless the refusal is
 * about the model asked for ("no access to model …"), which any caller could provoke on a
 * channel serving `*`: then only this request moves on, and the key stays.
 */
export function rejectedCredentials(status: number, upstreamText: string): UpstreamFailure {
  if (status === 403 && /\bmodels?\b/i.test(upstreamText)) {
    return {
      error: upstreamError(`The upstream provider refused the channel access to this model (status ${status}).`, 'upstream_permission_denied'),
      retryable: true,
      channelFault: false,
    };
  }
  return {
    error: upstreamError(`The upstream provider rejected the channel's key (status ${status}).`, 'upstream_auth_failed'),
    retryable: true,
    channelFault: false,
    keyRejected: true,
  };
}
