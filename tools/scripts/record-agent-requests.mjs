// Records the HTTP requests a real coding-agent CLI sends, for test fixtures (issues 28/29).
// Starts a recording server on 127.0.0.1 (port 0) that answers every generation request with a
// minimal valid reply in the provider's own format (a plain text "hi"; SSE when streamed), runs the
// CLI against it with a scratch HOME and a placeholder key, and writes one JSON file per request:
// {method, path, query, headers, bodyBytes, body} — body parsed (JSON) and re-serialised, bodyBytes
// the size the CLI sent. Keys and auth headers are redacted. The CLIs' telemetry is switched off where
// an environment switch exists (Gemini CLI, Claude Code; Codex has none for exec); run it where no other
// network is reachable to be sure nothing leaves the machine.
//
// Usage: node tools/scripts/record-agent-requests.mjs <gemini|codex|claude|claude-bedrock|claude-vertex> <out-dir> [--bin <path>] [--tool-call] [-- extra CLI args]
//   claude-bedrock / claude-vertex: Claude Code in its Bedrock or Vertex mode with the cloud's auth
//   skipped (CLAUDE_CODE_SKIP_BEDROCK_AUTH / CLAUDE_CODE_SKIP_VERTEX_AUTH), the recorder as its base URL,
//   a placeholder token in AWS_BEARER_TOKEN_BEDROCK (Bedrock) or in ANTHROPIC_CUSTOM_HEADERS as
//   `Authorization: Bearer …` (Vertex); the recorder answers in the cloud's format (Bedrock's streams
//   as AWS's binary event stream, Vertex's as Anthropic's SSE).
//   --tool-call: the first main-turn answer is a tool call (Gemini CLI: list_directory with a thought
//   signature; Codex: an encrypted reasoning item and exec_command `echo hi`, or the `exec` custom tool
//   for models that get their tools as `additional_tools`; Claude Code: a signed thinking block and Bash
//   `echo hi`, which needs `-- --allowedTools Bash`), so the CLI's second request shows the round trip.
//   --bin defaults to the CLI on PATH (gemini, codex, claude). Install the CLIs outside the repo, e.g.
//   `cd /tmp/agents && npm i @google/gemini-cli @openai/codex @anthropic-ai/claude-code`.
// The prompt is always "say hi"; the run is time-boxed (RECORD_TIMEOUT_MS, default 180000). The scratch
// HOME and working directory are removed afterwards unless RECORD_KEEP_HOME is set.
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const PLACEHOLDER_KEY = 'recorder-placeholder-key';
/** Seeded as the CLIs' per-install id (Gemini CLI and Codex send it), so a recording carries no real one. */
const PLACEHOLDER_INSTALLATION_ID = '00000000-0000-4000-8000-000000000000';
/** Seeded as Claude Code's device id (64 hex digits, like the one it generates). */
const PLACEHOLDER_DEVICE_ID = '0'.repeat(64);
const REDACTED = '<redacted>';
/** Headers that carry credentials: recorded only as `<redacted>`. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'proxy-authorization', 'cookie']);
/** Headers that only describe this connection (the port changes every run). */
const CONNECTION_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
/** Query parameters that carry credentials. */
const SECRET_QUERY = new Set(['key', 'api_key', 'apikey']);

const [agent, outDir, ...rest] = process.argv.slice(2);
const AGENTS = ['gemini', 'codex', 'claude', 'claude-bedrock', 'claude-vertex'];
if (!AGENTS.includes(agent ?? '') || !outDir) {
  console.error(`usage: record-agent-requests.mjs <${AGENTS.join('|')}> <out-dir> [--bin <path>] [--tool-call] [-- extra CLI args]`);
  process.exit(2);
}
const dashDash = rest.indexOf('--');
const options = dashDash === -1 ? rest : rest.slice(0, dashDash);
const extraArgs = dashDash === -1 ? [] : rest.slice(dashDash + 1);
const binIndex = options.indexOf('--bin');
/** Claude Code in every mode. */
const claudeCode = agent.startsWith('claude');
const bin = binIndex === -1 ? (claudeCode ? 'claude' : agent) : options[binIndex + 1];
const timeoutMs = Number(process.env.RECORD_TIMEOUT_MS ?? 180_000);
const toolCall = options.includes('--tool-call');
/** Set once the tool call has been answered: every later turn gets the plain text answer. */
let toolCallAnswered = false;
/** Answer this main-turn request with the tool call? (once, and only with --tool-call) */
function takeToolCall() {
  if (!toolCall || toolCallAnswered) return false;
  toolCallAnswered = true;
  return true;
}

mkdirSync(outDir, { recursive: true });
let sequence = 0;

function redactHeaders(headers) {
  const kept = {};
  for (const [name, value] of Object.entries(headers)) {
    if (CONNECTION_HEADERS.has(name)) continue;
    kept[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
  }
  return kept;
}

function redactQuery(searchParams) {
  const query = {};
  for (const [name, value] of searchParams) query[name] = SECRET_QUERY.has(name.toLowerCase()) ? REDACTED : value;
  return query;
}

function parseBody(raw, contentType) {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  if (contentType?.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// ---- Gemini (generativelanguage v1beta) ----
/** A small value that satisfies a JSON/OpenAPI schema (the CLI's routing classifier parses the answer). */
function sampleOf(schema) {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (String(schema.type ?? 'object').toLowerCase()) {
    case 'string':
      return 'a short greeting';
    case 'integer':
    case 'number':
      return 10;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property)]));
  }
}

function answerGemini(req, url, body, res) {
  const model = /models\/([^:/]+)/.exec(url.pathname)?.[1] ?? 'gemini';
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 };
  const candidate = { content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP', index: 0 };
  if (url.pathname.endsWith(':countTokens')) return json(res, 200, { totalTokens: 10 });
  if (url.pathname.endsWith(':streamGenerateContent')) {
    const hasTool = (name) => body?.tools?.some((tool) => tool.functionDeclarations?.some((declaration) => declaration.name === name));
    if (hasTool('list_directory') && takeToolCall()) {
      const call = { functionCall: { name: 'list_directory', args: { dir_path: '.' } }, thoughtSignature: 'cmVjb3JkZXItdGhvdWdodC1zaWduYXR1cmU=' };
      return sse(res, [{ data: { candidates: [{ ...candidate, content: { role: 'model', parts: [call] } }], usageMetadata, modelVersion: model, responseId: 'rec-1' } }]);
    }
    return sse(res, [{ data: { candidates: [candidate], usageMetadata, modelVersion: model, responseId: 'rec-2' } }]);
  }
  if (url.pathname.endsWith(':generateContent')) {
    // Side calls (routing classifier, next-speaker check) ask for JSON: answer the JSON they expect.
    const config = body?.generationConfig;
    const wantsJson = config?.responseMimeType === 'application/json';
    const text = wantsJson ? JSON.stringify(sampleOf(config.responseJsonSchema ?? config.responseSchema ?? {})) : 'hi';
    return json(res, 200, {
      candidates: [{ ...candidate, content: { role: 'model', parts: [{ text }] } }],
      usageMetadata,
      modelVersion: model,
      responseId: 'rec-1',
    });
  }
  if (req.method === 'GET' && /\/models\/?$/.test(url.pathname)) return json(res, 200, { models: [] });
  return json(res, 404, { error: { code: 404, message: `recorder: no route ${url.pathname}`, status: 'NOT_FOUND' } });
}

// ---- OpenAI Responses (Codex) ----
/** Codex's shell as the model would call it: exec_command as a function, else the `exec` custom (JavaScript) tool. */
function codexToolCall(body) {
  const tools = [...(body?.tools ?? []), ...(body?.input ?? []).filter((item) => item.type === 'additional_tools').flatMap((item) => item.tools)];
  const flat = tools.flatMap((tool) => (tool.type === 'namespace' ? tool.tools.map((inner) => ({ ...inner, namespace: tool.name })) : [tool]));
  if (flat.some((tool) => tool.type === 'function' && tool.name === 'exec_command' && !tool.namespace)) {
    return { id: 'fc_rec_1', type: 'function_call', call_id: 'call_rec_1', name: 'exec_command', arguments: JSON.stringify({ cmd: 'echo hi' }) };
  }
  const exec = flat.find((tool) => tool.type === 'custom' && tool.name === 'exec');
  if (exec) {
    const input = "text(await tools.exec_command({ cmd: 'echo hi' }));";
    return { id: 'ctc_rec_1', type: 'custom_tool_call', call_id: 'call_rec_1', ...(exec.namespace ? { namespace: exec.namespace } : {}), name: 'exec', input };
  }
  return undefined;
}

function answerResponses(req, url, body, res) {
  if (req.method === 'GET' && url.pathname.endsWith('/models')) return json(res, 200, { object: 'list', data: [] });
  if (!(req.method === 'POST' && url.pathname.endsWith('/responses'))) {
    return json(res, 404, { error: { message: `recorder: no route ${url.pathname}`, type: 'invalid_request_error' } });
  }
  const model = typeof body?.model === 'string' ? body.model : 'gpt';
  const message = { id: 'msg_rec_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'hi', annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 11 };
  const response = { id: 'resp_rec_1', object: 'response', created_at: Math.floor(Date.now() / 1000), model, output: [], usage: null, status: 'in_progress' };
  if (body?.stream !== true) return json(res, 200, { ...response, status: 'completed', output: [message], usage });
  let n = 0;
  const event = (type, fields) => ({ event: type, data: { type, sequence_number: n++, ...fields } });
  const call = toolCall ? codexToolCall(body) : undefined;
  if (call && takeToolCall()) {
    const reasoning = { id: 'rs_rec_1', type: 'reasoning', summary: [], encrypted_content: 'recorder-encrypted-reasoning' };
    const output = [reasoning, call];
    return sse(res, [
      event('response.created', { response }),
      ...output.flatMap((item, index) => [
        event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } }),
        event('response.output_item.done', { output_index: index, item: { ...item, status: 'completed' } }),
      ]),
      event('response.completed', { response: { ...response, status: 'completed', output, usage } }),
    ]);
  }
  return sse(res, [
    event('response.created', { response }),
    event('response.in_progress', { response }),
    event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
    event('response.content_part.added', { item_id: message.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: 'hi' }),
    event('response.output_text.done', { item_id: message.id, output_index: 0, content_index: 0, text: 'hi' }),
    event('response.content_part.done', { item_id: message.id, output_index: 0, content_index: 0, part: message.content[0] }),
    event('response.output_item.done', { output_index: 0, item: message }),
    event('response.completed', { response: { ...response, status: 'completed', output: [message], usage } }),
  ]);
}

// ---- Anthropic Messages (Claude Code) ----
function answerAnthropic(req, url, body, res) {
  if (url.pathname.endsWith('/count_tokens')) return json(res, 200, { input_tokens: 10 });
  if (!(req.method === 'POST' && url.pathname.endsWith('/messages'))) {
    return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `recorder: no route ${url.pathname}` } });
  }
  const model = typeof body?.model === 'string' ? body.model : 'claude';
  if (body?.stream !== true) return json(res, 200, anthropicMessage(model));
  return sse(res, anthropicEvents(model, body));
}

const anthropicUsage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The whole "hi" Message. */
function anthropicMessage(model) {
  return { id: 'msg_rec_1', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: anthropicUsage };
}

/** A streamed answer's events: "hi", or (once, with --tool-call) a signed thinking block and Bash `echo hi`. */
function anthropicEvents(model, body) {
  const message = { id: 'msg_rec_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: anthropicUsage };
  if (body?.tools?.some((tool) => tool.name === 'Bash') && takeToolCall()) {
    const input = JSON.stringify({ command: 'echo hi', description: 'Print hi' });
    return [
      { event: 'message_start', data: { type: 'message_start', message } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'cmVjb3JkZXItdGhpbmtpbmctc2lnbmF0dXJl' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_rec_1', name: 'Bash', input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: input } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
  }
  return [
    { event: 'message_start', data: { type: 'message_start', message } },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

// ---- Claude on Amazon Bedrock (InvokeModel, InvokeModelWithResponseStream) ----
const eventStreamCodec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * Bedrock's streamed Claude answer: AWS's binary event stream, each Anthropic event as a `chunk`
 * event whose payload is `{"bytes": base64(event JSON)}`, the last one carrying
 * `amazon-bedrock-invocationMetrics`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html).
 */
function bedrockStream(res, events) {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  events.forEach(({ data }, index) => {
    const last = index === events.length - 1;
    const payload = last ? { ...data, 'amazon-bedrock-invocationMetrics': { inputTokenCount: 10, outputTokenCount: 1, invocationLatency: 100, firstByteLatency: 50 } } : data;
    const chunk = { bytes: Buffer.from(JSON.stringify(payload)).toString('base64') };
    const headers = {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    };
    res.write(eventStreamCodec.encode({ headers, body: fromUtf8(JSON.stringify(chunk)) }));
  });
  res.end();
}

function answerBedrock(req, url, body, res) {
  const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/.exec(url.pathname);
  if (!route || req.method !== 'POST') {
    res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' });
    return res.end(JSON.stringify({ message: `recorder: no route ${url.pathname}` }));
  }
  const [, model, operation] = route;
  if (operation === 'count-tokens') return json(res, 200, { inputTokens: 10 });
  if (operation === 'invoke') return json(res, 200, anthropicMessage(decodeURIComponent(model)));
  return bedrockStream(res, anthropicEvents(decodeURIComponent(model), body));
}

// ---- Claude on Vertex AI (rawPredict, streamRawPredict): Anthropic's own answers ----
function answerVertex(req, url, body, res) {
  const route = /\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/.exec(url.pathname);
  if (!route || req.method !== 'POST') {
    return json(res, 404, { error: { code: 404, message: `recorder: no route ${url.pathname}`, status: 'NOT_FOUND' } });
  }
  const [, model, method] = route;
  if (model === 'count-tokens') return json(res, 200, { input_tokens: 10 });
  if (method === 'rawPredict') return json(res, 200, anthropicMessage(model));
  return sse(res, anthropicEvents(model, body));
}

const answer = { gemini: answerGemini, codex: answerResponses, claude: answerAnthropic, 'claude-bedrock': answerBedrock, 'claude-vertex': answerVertex }[agent];

const PLACEHOLDER = "Synthetic placeholder: Claude Code's own wording is not redistributed here; only its length and structure are kept. ";
const filler = (length) => PLACEHOLDER.repeat(Math.ceil(length / PLACEHOLDER.length)).slice(0, length);

/**
 * Claude Code is not open source: its prompt and tool texts are replaced by placeholders of the
 * same length (texts over 200 characters, descriptions over 40), the rest kept as sent.
 */
function withoutClaudeCodeWording(body) {
  if (!claudeCode || typeof body !== 'object' || body === null) return body;
  const blocks = (content) =>
    typeof content === 'string'
      ? content.length > 200 ? filler(content.length) : content
      : Array.isArray(content)
        ? content.map((block) => (block?.type === 'text' && typeof block.text === 'string' && block.text.length > 200 ? { ...block, text: filler(block.text.length) } : block))
        : content;
  const descriptions = (node) => {
    if (Array.isArray(node)) return node.map(descriptions);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'description' && typeof value === 'string' && value.length > 40 ? filler(value.length) : descriptions(value)]));
  };
  return {
    ...body,
    ...(body.system !== undefined && { system: blocks(body.system) }),
    ...(Array.isArray(body.messages) && { messages: body.messages.map((message) => ({ ...message, content: blocks(message.content) })) }),
    ...(Array.isArray(body.tools) && { tools: body.tools.map(descriptions) }),
  };
}

/** Writes one request as `NN-METHOD-path.json`; returns its parsed URL. */
function recordRequest(req, rawBody, suffix = '') {
  const url = new URL(req.url ?? '/', 'http://recorder.invalid');
  const parsed = parseBody(rawBody, req.headers['content-type']);
  const body = withoutClaudeCodeWording(parsed);
  const record = {
    method: req.method,
    path: url.pathname,
    query: redactQuery(url.searchParams),
    headers: redactHeaders(req.headers),
    bodyBytes: rawBody.length,
    body,
  };
  sequence += 1;
  const name = `${String(sequence).padStart(2, '0')}-${req.method}-${url.pathname.replace(/[^A-Za-z0-9.:-]+/g, '_').replace(/^_/, '')}${suffix}.json`;
  writeFileSync(path.join(outDir, name), `${JSON.stringify(record, null, 2)}\n`);
  console.error(`recorded ${name}`);
  return { url, body: parsed };
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const { url, body } = recordRequest(req, Buffer.concat(chunks));
    answer(req, url, body, res);
  });
});
// A WebSocket upgrade (Codex with `supports_websockets = true`) is recorded, then refused with a 404,
// so the CLI falls back to HTTP.
server.on('upgrade', (req, socket) => {
  recordRequest(req, Buffer.alloc(0), '-upgrade');
  socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const baseUrl = `http://127.0.0.1:${port}`;

const home = mkdtempSync(path.join(os.tmpdir(), `record-${agent}-home-`));
const workDir = mkdtempSync(path.join(os.tmpdir(), `record-${agent}-work-`));
const env = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1', CI: '1' };
for (const name of Object.keys(env)) {
  if (/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|CODEX|CLAUDE|AWS|CLOUD_ML)_/.test(name)) delete env[name];
}
let args;
if (agent === 'gemini') {
  Object.assign(env, { GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY: PLACEHOLDER_KEY, GEMINI_TELEMETRY_ENABLED: 'false', GEMINI_CLI_TRUST_WORKSPACE: 'true' });
  // 0.61 derives the auth type "gateway" from GOOGLE_GEMINI_BASE_URL, which non-interactive mode then
  // refuses ("Invalid auth method selected."); selecting the API-key type in settings keeps the base URL.
  mkdirSync(path.join(home, '.gemini'), { recursive: true });
  writeFileSync(path.join(home, '.gemini', 'installation_id'), PLACEHOLDER_INSTALLATION_ID);
  writeFileSync(path.join(home, '.gemini', 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)}\n`);
  args = ['-p', 'say hi', ...extraArgs];
} else if (agent === 'codex') {
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(path.join(codexHome, 'installation_id'), PLACEHOLDER_INSTALLATION_ID);
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model_provider = "recorder"',
      '',
      '[model_providers.recorder]',
      'name = "recorder"',
      `base_url = "${baseUrl}/v1"`,
      'env_key = "RECORDER_OPENAI_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  Object.assign(env, { CODEX_HOME: codexHome, RECORDER_OPENAI_API_KEY: PLACEHOLDER_KEY });
  args = ['exec', '--skip-git-repo-check', ...extraArgs, 'say hi'];
} else {
  const mode =
    agent === 'claude-bedrock'
      ? // The token as a Bedrock API key: Claude Code sends it as `Authorization: Bearer`.
        { CLAUDE_CODE_USE_BEDROCK: '1', ANTHROPIC_BEDROCK_BASE_URL: baseUrl, CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1', AWS_REGION: 'us-east-1', AWS_BEARER_TOKEN_BEDROCK: PLACEHOLDER_KEY }
      : agent === 'claude-vertex'
        ? // With Vertex's auth skipped, Claude Code sends the Authorization of ANTHROPIC_CUSTOM_HEADERS.
          {
            CLAUDE_CODE_USE_VERTEX: '1',
            ANTHROPIC_VERTEX_BASE_URL: `${baseUrl}/v1`,
            CLAUDE_CODE_SKIP_VERTEX_AUTH: '1',
            ANTHROPIC_VERTEX_PROJECT_ID: 'recorder-project',
            CLOUD_ML_REGION: 'us-east5',
            ANTHROPIC_CUSTOM_HEADERS: `Authorization: Bearer ${PLACEHOLDER_KEY}`,
          }
        : { ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: PLACEHOLDER_KEY };
  Object.assign(env, {
    ...mode,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
  });
  // Claude Code's device id (metadata.user_id.device_id) is the userID of ~/.claude.json: seed a placeholder.
  writeFileSync(path.join(home, '.claude.json'), `${JSON.stringify({ userID: PLACEHOLDER_DEVICE_ID }, null, 2)}\n`);
  args = ['-p', 'say hi', ...extraArgs];
}

console.error(`recorder on ${baseUrl}; running ${bin} ${args.join(' ')} in ${workDir}`);
const child = spawn(bin, args, { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const timer = setTimeout(() => {
  console.error(`timed out after ${timeoutMs} ms; stopping ${bin}`);
  child.kill('SIGTERM');
}, timeoutMs);
const code = await new Promise((resolve) => child.on('close', (exitCode, signal) => resolve(exitCode ?? signal)));
clearTimeout(timer);
writeFileSync(path.join(outDir, 'cli-output.txt'), output.split(PLACEHOLDER_KEY).join(REDACTED));
console.error(`${bin} exited with ${code}; ${sequence} request(s) recorded in ${outDir}`);
server.close();
if (!process.env.RECORD_KEEP_HOME) {
  rmSync(home, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
}
