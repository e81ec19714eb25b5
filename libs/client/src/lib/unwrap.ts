import { RelayApiError } from './relay-api-error';

interface ContractResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * The body of an answer `api.…()` gave with one of the `expected` statuses, typed as the contract
 * says; any other status throws RelayApiError with the relay's message and request id:
 * `const token = unwrap(await client.api.tokens.getToken({ params: { id } }), 200)`.
 */
export function unwrap<R extends ContractResponse, S extends R['status']>(response: R, ...expected: S[]): Extract<R, { status: S }>['body'] {
  if ((expected as number[]).includes(response.status)) return response.body as Extract<R, { status: S }>['body'];
  throw RelayApiError.fromBody({
    status: response.status,
    body: response.body,
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}
