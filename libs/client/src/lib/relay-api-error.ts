/** What the client knows about a failed call, in the OpenAI error shape (SPEC §9). */
export interface RelayApiErrorInit {
  status: number;
  message: string;
  type: string;
  code: string | null;
  param: string | null;
  /** The relay's `x-request-id`, to quote when asking an operator about this call. */
  requestId?: string;
}

/**
 * Status given to faults the client finds in an answer itself (a malformed chunk, a stream
 * cut short): the server side handed back a bad response, as a gateway would say.
 */
export const INVALID_RESPONSE_STATUS = 502;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringOrNull = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  // Some OpenAI-compatible servers send numeric codes; keep them rather than lose them.
  if (typeof value === 'number') return String(value);
  return null;
};

/** The first characters of a non-JSON body, so the message says what actually came back. */
const describeBody = (body: unknown): string => {
  if (typeof body === 'string' && body.trim() !== '') return `: ${body.trim().slice(0, 200)}`;
  return '';
};

/** An error answer of the relay: a non-2xx status, or an error event inside a stream. */
export class RelayApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly requestId: string | undefined;

  constructor(init: RelayApiErrorInit) {
    super(init.message);
    this.name = 'RelayApiError';
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
  }

  /** Worth trying again later: timeouts, conflicts, rate limits and server-side failures. */
  get isRetryable(): boolean {
    return this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }

  /**
   * Builds the error from a response body. Reads `{error: {message, type, param, code}}`
   * leniently, because the body may come from a proxy in front of the relay, not the relay.
   */
  static fromBody(args: { status: number; body: unknown; requestId?: string }): RelayApiError {
    const { status, body, requestId } = args;
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    const message = typeof error?.message === 'string' ? error.message : undefined;
    return new RelayApiError({
      status,
      message: message ?? `Request failed with status ${status}${describeBody(body)}`,
      type: typeof error?.type === 'string' ? error.type : 'api_error',
      code: stringOrNull(error?.code),
      param: stringOrNull(error?.param),
      requestId,
    });
  }

  /**
   * Builds the error from a `data: {"error": …}` event. The stream's HTTP status was 200, which
   * says nothing about this failure, so the event's own `status` is used when it has one.
   */
  static fromStreamEvent(args: { payload: Record<string, unknown>; requestId?: string }): RelayApiError {
    const { payload, requestId } = args;
    const error = isRecord(payload.error) ? payload.error : {};
    const ownStatus = error.status ?? payload.status;
    const status = typeof ownStatus === 'number' && ownStatus >= 400 && ownStatus <= 599 ? ownStatus : 500;
    return RelayApiError.fromBody({ status, body: { error }, requestId });
  }

  /** A fault the client detected in an answer (`code` says which: `stream_truncated` …). */
  static invalidResponse(args: { code: string; message: string; requestId?: string }): RelayApiError {
    return new RelayApiError({
      status: INVALID_RESPONSE_STATUS,
      type: 'invalid_response_error',
      code: args.code,
      param: null,
      message: args.message,
      requestId: args.requestId,
    });
  }
}
