import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AnthropicHeadersSeen } from '../sim-types';
import { anthropicError, sendAnthropicError } from './anthropic-error';

/**
 * The `anthropic-beta` values Claude Code 2.1.197 and 2.1.332 can send (`npm pack
 * @anthropic-ai/claude-code-linux-x64@<version>`, every `<name>-YYYY-MM-DD` string in its
 * `claude` binary that is not a model id, an `anthropic_version` such as `bedrock-2023-05-31`,
 * a test placeholder (`foo-2025-01-01`) or a fragment (`pre-2026-07-28`), plus
 * `claude-code-20250219`; read on 2026-11-29). 2.1.332 is the version the recorded requests in
 * test-fixtures/anthropic-inbound/claude-code-2.1.332-* come from. Listed so that the simulator never refuses
 * what current Claude Code sends through the relay.
 */
export const claudeCodeBetas: readonly string[] = [
  'advanced-tool-use-2025-11-20',
  'advisor-tool-2026-03-01',
  'afk-mode-2026-01-31',
  'agent-memory-2026-07-22',
  'auto-mode-classifier-2026-07-16',
  'cache-diagnosis-2026-04-07',
  'cache-keepalive-2026-09-03',
  'ccr-byoc-2025-07-29',
  'ccr-triggers-2026-01-30',
  'claude-code-20250219',
  'claude-code-side-query-2026-09-29',
  'code-execution-2025-08-25',
  'compact-2026-01-12',
  'context-1m-2025-08-07',
  'context-hint-2026-04-09',
  'context-management-2025-06-27',
  'dangerous-tool-use-2026-09-03',
  'dreaming-2026-04-21',
  'effort-2025-11-24',
  'environments-2025-11-01',
  'extended-cache-ttl-2025-04-11',
  'fallback-credit-2026-06-01',
  'fast-mode-2026-02-01',
  'files-api-2025-04-14',
  'inline-tools-2026-09-15',
  'interleaved-thinking-2025-05-14',
  'managed-agents-2026-04-01',
  'mcp-client-2025-11-20',
  'mcp-servers-2025-12-04',
  'mcp-tunnels-2026-06-22',
  'message-batches-2024-09-24',
  'message-threads-2026-08-12',
  'mid-conversation-system-2026-04-07',
  'mid-conversation-system-clear-at-2026-08-21',
  'mid-conversation-tool-changes-2026-07-01',
  'oauth-2025-04-20',
  'oidc-federation-2026-04-01',
  'per-turn-control-2026-07-01',
  'program-use-case-ids-2026-09-17',
  'prompt-caching-evict-2026-05-12',
  'prompt-caching-scope-2026-01-05',
  'redact-thinking-2026-02-12',
  'request-tags-2026-08-21',
  'resumption-2026-10-08',
  'server-side-fallback-2026-06-01',
  'server-side-fallback-2026-07-01',
  'skills-2025-10-02',
  'structured-outputs-2025-11-13',
  'structured-outputs-2025-12-15',
  'subagent-review-2026-11-17',
  'summarize-connector-text-2026-03-13',
  'task-budgets-2026-03-13',
  'thinking-binding-controls-2026-08-01',
  'thinking-display-updates-2026-08-18',
  'thinking-resumption-2026-07-17',
  'thinking-token-count-2026-05-13',
  'timing-2026-09-09',
  'token-counting-2024-11-01',
  'tool-provenance-2026-10-26',
  'tool-search-tool-2025-10-19',
  'user-profiles-2026-03-24',
  'user-profiles-2026-08-18',
  'web-search-2025-03-05',
  'web-search-results-only-2026-11-15',
];

/**
 * The `anthropic-beta` values the simulator accepts by default: Claude Code's (above) and those
 * the relay, the SDKs and older clients send. Anything else gets the API's 400, so a relay that
 * forwards a made-up or misspelt beta is caught. `UpstreamSimOptions.anthropicBetas` replaces it.
 */
export const defaultAnthropicBetas: readonly string[] = [
  ...new Set([
    ...claudeCodeBetas,
    'prompt-caching-2024-07-31',
    'pdfs-2024-09-25',
    'computer-use-2024-10-22',
    'computer-use-2025-01-24',
    'computer-use-2025-11-24',
    'token-efficient-tools-2025-02-19',
    'output-128k-2025-02-19',
    'mcp-client-2025-04-04',
    'dev-full-thinking-2025-05-14',
    'fine-grained-tool-streaming-2025-05-14',
    'code-execution-2025-05-22',
    'search-results-2025-06-09',
    'model-context-window-exceeded-2025-08-26',
    'web-fetch-2025-09-10',
  ]),
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
