import type { ErrorBody } from '@chat-relay/contract';

export interface RelayErrorInit {
  status: number;
  type: string;
  code: string | null;
  message: string;
  param?: string | null;
  /** Extra response headers (e.g. `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * The one error type handlers throw. The error middleware turns it into the OpenAI error body
 * (SPEC §9); nothing else writes error responses.
 */
export class RelayError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(init: RelayErrorInit) {
    super(init.message);
    this.name = 'RelayError';
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param ?? null;
    this.headers = init.headers ?? {};
  }

  toBody(): { error: ErrorBody } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new RelayError({ status: 400, type: 'invalid_request_error', code, message, param });

export const authenticationError = (code: string, message: string) =>
  new RelayError({ status: 401, type: 'authentication_error', code, message });

export const permissionError = (code: string, message: string) =>
  new RelayError({ status: 403, type: 'permission_error', code, message });

export const notFound = (code: string, message: string, param: string | null = null) =>
  new RelayError({ status: 404, type: 'invalid_request_error', code, message, param });

export const modelNotFound = (model: string) =>
  notFound('model_not_found', `The model '${model}' does not exist or you do not have access to it.`, 'model');

/**
 * Some channel serves the model, none on the endpoint asked for (an embedding model on the chat
 * route): 404 model_not_found naming both, and where the model is served.
 */
export const modelNotServedOn = (model: string, endpoint: string, servedOn: readonly string[]) =>
  notFound(
    'model_not_found',
    `The model '${model}' is not served for ${endpoint}` +
      (servedOn.length ? `; it is served for ${servedOn.join(', ')}.` : '.'),
    'model',
  );

export const requestTooLarge = (limitBytes: number) =>
  new RelayError({
    status: 413,
    type: 'invalid_request_error',
    code: 'request_too_large',
    message: `The request body is larger than the limit of ${limitBytes} bytes.`,
  });

export const noAvailableChannel = (model: string) =>
  new RelayError({
    status: 503,
    type: 'service_unavailable',
    code: 'no_available_channel',
    message: `No channel serving '${model}' is available right now; try again shortly.`,
  });

export const upstreamError = (message: string, code: string | null, status = 502) =>
  new RelayError({ status, type: 'upstream_error', code, message });

export const upstreamTimeout = (message = 'The upstream provider did not answer in time.') =>
  new RelayError({ status: 504, type: 'upstream_error', code: 'upstream_timeout', message });

export const internalError = () =>
  new RelayError({
    status: 500,
    type: 'server_error',
    code: 'internal_error',
    message: 'The relay had an internal error while processing your request.',
  });
