import { z } from 'zod';
import { readFixture } from '../testing/fixtures';

/**
 * Test-only: requests recorded from the real coding-agent CLIs (Gemini CLI 0.61.0, Codex 0.171.0,
 * Claude Code 2.1.332) by tools/scripts/record-agent-requests.mjs — test-fixtures/SOURCES.md says
 * how each was made. Credentials are stored as `<redacted>`; `agentHeaders` puts a test key back in
 * the header the CLI used.
 */
export const AGENT_FIXTURES = {
  /** `gemini -p "say hi"`: the main turn, routed to gemini-3.8-flash (streamGenerateContent?alt=sse). */
  geminiCli: 'gemini-inbound/gemini-cli-0.61.0-request.json',
  /** The routing classifier Gemini CLI calls first (generateContent, JSON schema answer, no tools). */
  geminiCliRouter: 'gemini-inbound/gemini-cli-0.61.0-router-request.json',
  /** `gemini -p "say hi" --yolo`: the full tool set (run_shell_command, write_file, replace…). */
  geminiCliYolo: 'gemini-inbound/gemini-cli-0.61.0-yolo-request.json',
  /** The turn after a list_directory call: functionCall with its thoughtSignature and id, then functionResponse. */
  geminiCliToolResult: 'gemini-inbound/gemini-cli-0.61.0-tool-result-request.json',
  /** `codex exec "say hi"` with its default model (gpt-6.2-sol): no `tools`, an `additional_tools` input item. */
  codex: 'openai-responses/codex-0.171.0-request.json',
  /** The turn after the `exec` custom tool call (namespace `functions`): custom_tool_call + custom_tool_call_output. */
  codexToolResult: 'openai-responses/codex-0.171.0-tool-result-request.json',
  /** `codex exec -m gpt-5.5`: function tools, `custom` apply_patch (lark grammar), tool_search, web_search. */
  codexGpt55: 'openai-responses/codex-0.171.0-gpt-5.5-request.json',
  /** The turn after an exec_command call: reasoning (encrypted) + function_call + function_call_output. */
  codexGpt55ToolResult: 'openai-responses/codex-0.171.0-gpt-5.5-tool-result-request.json',
  /** `codex exec -m gpt-4o` (a model Codex does not know): the `namespace` multi_agent_v1 tool, web_search. */
  codexGpt4o: 'openai-responses/codex-0.171.0-gpt-4o-request.json',
  /** Codex's `GET /v1/responses` WebSocket upgrade (`supports_websockets = true`), no body. */
  codexWebSocketUpgrade: 'openai-responses/codex-0.171.0-websocket-upgrade-request.json',
  /** `claude -p "say hi"` with its default model (claude-opus-5-5): adaptive thinking, effort, 8 betas. */
  claudeCode: 'anthropic-inbound/claude-code-2.1.332-request.json',
  /** `claude -p "say hi" --model claude-sonnet-4-5`: thinking enabled with budget_tokens, max_tokens 32000. */
  claudeCodeSonnet45: 'anthropic-inbound/claude-code-2.1.332-sonnet-4-5-request.json',
  /** The turn after a Bash tool_use: signed thinking block + tool_use, then tool_result. */
  claudeCodeToolResult: 'anthropic-inbound/claude-code-2.1.332-tool-result-request.json',
  /** The `HEAD /api/hello` Claude Code sends before its first request. */
  claudeCodeHello: 'anthropic-inbound/claude-code-2.1.332-hello-request.json',
} as const;

export type AgentFixture = keyof typeof AGENT_FIXTURES;

/** The value the recorder stored in place of a credential. */
export const REDACTED = '<redacted>';

const recordedRequestSchema = z.object({
  method: z.string(),
  /** Path only; the query is in `query`. */
  path: z.string(),
  query: z.record(z.string()),
  /** Lower-case names as received; host, content-length and connection left out. */
  headers: z.record(z.string()),
  /** Size of the body the CLI sent (the stored body is re-serialised, so its length differs). */
  bodyBytes: z.number().int().nonnegative(),
  /** The JSON body as parsed, or null when there was none. */
  body: z.record(z.unknown()).nullable(),
});

export type RecordedAgentRequest = z.infer<typeof recordedRequestSchema>;

export function readAgentRequest(name: AgentFixture): RecordedAgentRequest {
  return recordedRequestSchema.parse(JSON.parse(readFixture(AGENT_FIXTURES[name])));
}

/** The recorded body; throws for the bodiless recordings (hello, WebSocket upgrade). */
export function agentBody(request: RecordedAgentRequest): Record<string, unknown> {
  if (request.body === null) throw new Error(`recorded ${request.method} ${request.path} has no body`);
  return request.body;
}

/** `baseUrl` (no trailing slash) + the recorded path and query. */
export function agentUrl(baseUrl: string, request: RecordedAgentRequest): string {
  const query = new URLSearchParams(request.query).toString();
  return `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
}

/**
 * The recorded headers with `key` in place of each redacted credential (Bearer for
 * `authorization`), and without `accept-encoding`, which the test's own fetch sets.
 */
export function agentHeaders(request: RecordedAgentRequest, key: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept-encoding') continue;
    if (value === REDACTED) headers[name] = name === 'authorization' ? `Bearer ${key}` : key;
    else headers[name] = value;
  }
  return headers;
}
