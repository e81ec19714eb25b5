import { RelayApiError } from '@chat-relay/client';

interface ContractResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * The body of a successful answer; any other status becomes a RelayApiError carrying the
 * relay's message and request id, which the pages show as they are.
 */
export function unwrap<R extends ContractResponse, S extends R['status']>(response: R, ...expected: S[]): Extract<R, { status: S }>['body'] {
  if ((expected as number[]).includes(response.status)) return response.body as Extract<R, { status: S }>['body'];
  throw RelayApiError.fromBody({
    status: response.status,
    body: response.body,
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}
