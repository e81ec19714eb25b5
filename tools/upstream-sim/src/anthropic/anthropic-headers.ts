import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AnthropicHeadersSeen } from '../sim-types';
import { anthropicError, sendAnthropicError } from './anthropic-error';

/**
 * The `anthropic-beta` values the simulator accepts by default: those the relay and its
 * clients (Claude Code, the SDKs) send. Anything else gets the API's 400, so a relay that
 * forwards a made-up or misspelt beta is caught. `UpstreamSimOptions.anthropicBetas` replaces it.
 */
export const defaultAnthropicBetas: readonly string[] = [
  'prompt-caching-2024-07-31',
  'extended-cache-ttl-2025-04-11',
  'message-batches-2024-09-24',
  'pdfs-2024-09-25',
  'token-counting-2024-11-01',
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'output-128k-2025-02-19',
  'files-api-2025-04-14',
  'mcp-client-2025-04-04',
  'mcp-client-2025-11-20',
  'interleaved-thinking-2025-05-14',
  'dev-full-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'code-execution-2025-05-22',
  'code-execution-2025-08-25',
  'search-results-2025-06-09',
  'context-management-2025-06-27',
  'context-1m-2025-08-07',
  'model-context-window-exceeded-2025-08-26',
  'web-fetch-2025-09-10',
  'skills-2025-10-02',
  'structured-outputs-2025-11-13',
  'effort-2025-11-24',
  'advanced-tool-use-2025-11-20',
  'claude-code-20250219',
  'oauth-2025-04-20',
];

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `anthropic-beta: a, b` (or the header repeated): its values, trimmed, in order. */
export function anthropicBetasOf(headers: IncomingHttpHeaders): string[] {
  const value = headers['anthropic-beta'];
  return (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

/** What a test asserts about an Anthropic call's headers (recorded with every request). */
export function anthropicHeadersOf(headers: IncomingHttpHeaders): AnthropicHeadersSeen {
  return { version: headerValue(headers, 'anthropic-version')?.trim(), betas: anthropicBetasOf(headers) };
}

export interface AnthropicHeaderRules {
  acceptedKeys: ReadonlySet<string> | undefined;
  knownBetas: ReadonlySet<string>;
}

/**
 * `x-api-key` (one of `acceptedKeys` when set), `anthropic-version` and every
 * `anthropic-beta` value, as the real API checks them; answers the error and returns false.
 */
export function checkAnthropicHeaders(headers: IncomingHttpHeaders, res: ServerResponse, rules: AnthropicHeaderRules): boolean {
  const key = headerValue(headers, 'x-api-key')?.trim();
  if (!key) {
    sendAnthropicError(res, 401, anthropicError('authentication_error', 'x-api-key header is required'));
    return false;
  }
  if (rules.acceptedKeys && !rules.acceptedKeys.has(key)) {
    sendAnthropicError(res, 401, anthropicError('authentication_error', 'invalid x-api-key'));
    return false;
  }
  if (!headerValue(headers, 'anthropic-version')?.trim()) {
    sendAnthropicError(res, 400, anthropicError('invalid_request_error', 'anthropic-version: header is required'));
    return false;
  }
  const unknown = anthropicBetasOf(headers).filter((beta) => !rules.knownBetas.has(beta));
  if (unknown.length > 0) {
    const message =
      `Unexpected value(s) ${unknown.map((beta) => `\`${beta}\``).join(', ')} for the \`anthropic-beta\` header. ` +
      'Please consult our documentation at docs.anthropic.com or try again without the header.';
    sendAnthropicError(res, 400, anthropicError('invalid_request_error', message));
    return false;
  }
  return true;
}
