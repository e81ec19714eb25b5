import { RelayError } from './relay-error';
import { redactSecrets } from './redact-secrets';

/**
 * Every string of an error built from an upstream's answer (message, type, code, param) with the
 * channel's keys cut out: these reach the caller, the usage log's `error_code` and the log lines.
 */
export function redactUpstreamError(error: RelayError, secrets: readonly string[]): RelayError {
  const message = redactSecrets(error.message, secrets);
  const type = redactSecrets(error.type, secrets);
  const code = error.code === null ? null : redactSecrets(error.code, secrets);
  const param = error.param === null ? null : redactSecrets(error.param, secrets);
  if (message === error.message && type === error.type && code === error.code && param === error.param) return error;
  return new RelayError({ status: error.status, type, code, param, message, headers: error.headers });
}
