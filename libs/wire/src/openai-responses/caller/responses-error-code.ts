import type { RelayError } from '../../errors/relay-error';

/** Codes a Response's `error` keeps as the relay had them: a client tells these apart. */
const KEPT_CODES: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'insufficient_quota', 'context_length_exceeded', 'invalid_prompt']);

/**
 * A relay error → the `code` of a failed Response's `error`. Documented mapping: the codes above
 * as they are; any other 429 is `rate_limit_exceeded`; everything else is `server_error`, OpenAI's
 * code for a response that failed on its side (the message still says what happened).
 */
export function responsesErrorCode(error: RelayError): string {
  if (error.code !== null && KEPT_CODES.has(error.code)) return error.code;
  if (error.status === 429) return 'rate_limit_exceeded';
  return 'server_error';
}
