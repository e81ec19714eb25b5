import { redactUpstreamError } from '../errors/redact-upstream-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';
import { mapUpstreamStatus } from '../openai-chat/upstream/openai-error';
import { isJsonObject } from '../json/json-checks';
import { upstreamTextExcerpt } from './task-common';

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
};

/**
 * What a Suno-style upstream said went wrong: new-api's `{code, message, data}`, an OpenAI-style
 * `{error: {message, code}}` from a gateway in front of it, or a short plain text.
 */
function readSunoError(text: string): { message: string | undefined; code: string | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: upstreamTextExcerpt(text) || undefined, code: undefined };
  }
  if (!isJsonObject(json)) return { message: undefined, code: undefined };
  const nested = isJsonObject(json['error']) ? json['error'] : {};
  return {
    message: textOf(json['message']) ?? textOf(nested['message']) ?? textOf(json['error']) ?? textOf(json['detail']),
    code: textOf(json['code']) ?? textOf(nested['code']),
  };
}

/**
 * A Suno-style upstream's non-2xx answer, mapped like the OpenAI ones (SPEC §9): a refused key is
 * disabled and another tried, an outage retried elsewhere, the request's own error kept with its
 * status. Every string is cut of the channel's keys.
 */
export function mapSunoErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  const { message, code } = readSunoError(text);
  const failure = mapUpstreamStatus(status, { message: message ?? '', code: code ?? null, type: null, param: null });
  return { ...failure, error: redactUpstreamError(failure.error, secrets) };
}
