import { RelayError, upstreamError, upstreamTimeout, type UpstreamFailure } from '@chat-relay/wire';
import { classifyTransportError } from './upstream-client';

export const clientClosed = () =>
  new RelayError({ status: 499, type: 'client_closed', code: 'client_closed', message: 'The client closed the request.' });

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** A failure to reach or hear from an upstream, as a routing outcome. */
export function transportFailure(error: unknown): UpstreamFailure {
  switch (classifyTransportError(error)) {
    case 'aborted':
      return { error: clientClosed(), retryable: false, channelFault: false };
    case 'timeout': {
      const code = codeOf(error);
      // Connecting does not depend on the request; waiting for headers or the next chunk does.
      return {
        error: upstreamTimeout(),
        retryable: true,
        channelFault: true,
        callerIndependent: code === 'UND_ERR_CONNECT_TIMEOUT',
        firstByteTimeout: code === 'UND_ERR_HEADERS_TIMEOUT',
      };
    }
    case 'unreachable':
      return {
        error: upstreamError('Could not connect to the upstream provider.', 'upstream_unreachable'),
        retryable: true,
        channelFault: true,
        callerIndependent: true,
      };
    case 'connection':
      return {
        error: upstreamError('The connection to the upstream provider failed.', 'upstream_connection_error'),
        retryable: true,
        channelFault: true,
      };
  }
}
