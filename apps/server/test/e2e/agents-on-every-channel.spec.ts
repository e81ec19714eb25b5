import type { ChannelType } from '@chat-relay/contract';
import type { RecordedRequest, UpstreamSim } from '@chat-relay/upstream-sim';
import { readFixture } from '../testing/fixtures';
import { agentBody, agentHeaders, readAgentRequest } from './agent-fixtures';
import { codexRequest } from './codex-request';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { RESPONSES_MODEL } from './responses-e2e';

/**
 * The coding agents' own requests through every chat channel type, against the strict simulator
 * (issue 28): each succeeds, the header names what the relay changed so the upstream model takes
 * it, and the simulator's log shows what reached it.
 */

/** Claude Code's recorded turn: thinking with a 31,999-token budget, max_tokens 32000, no sampling parameters. */
const claudeCodeBody = JSON.parse(readFixture('anthropic-inbound/claude-code-request.json')) as Record<string, unknown> & { model: string };
/** The betas Claude Code sends with it. */
const CLAUDE_CODE_BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14';

/** Claude Code 2.1.332's recorded turn: adaptive thinking, output_config.effort medium, max_tokens 128000, eight betas. */
const claudeCode2 = readAgentRequest('claudeCode');
const claudeCode2Body = agentBody(claudeCode2) as Record<string, unknown> & { model: string };

/** Gemini CLI 0.61.0's recorded first turn: temperature 1, topP 0.95, topK 64, thinkingConfig HIGH. */
const geminiCli = readAgentRequest('geminiCli');
const geminiCliBody = agentBody(geminiCli);
const GEMINI_CLI_MODEL = /\/models\/([^:]+):/.exec(geminiCli.path)?.[1] ?? '';

/** Codex 0.171.0's recorded first turn with its default model: its tools in an additional_tools item (namespaces, custom exec). */
const codex2 = readAgentRequest('codex');
const codex2Body = agentBody(codex2) as Record<string, unknown> & { model: string };

interface Agent {
  name: string;
  publicModel: string;
  post(e2e: E2eRelay): Promise<Response>;
}

const agents: Record<'claudeCode' | 'claudeCode2' | 'geminiCli' | 'codex' | 'codex2', Agent> = {
  claudeCode: {
    name: 'Claude Code',
    publicModel: claudeCodeBody.model,
    post: (e2e) =>
      fetch(`${e2e.url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01', 'anthropic-beta': CLAUDE_CODE_BETAS, 'content-type': 'application/json' },
        body: JSON.stringify(claudeCodeBody),
      }),
  },
  claudeCode2: {
    name: 'Claude Code 2.1.332',
    publicModel: claudeCode2Body.model,
    post: (e2e) =>
      fetch(`${e2e.url}/v1/messages?beta=true`, { method: 'POST', headers: agentHeaders(claudeCode2, e2e.token), body: JSON.stringify(claudeCode2Body) }),
  },
  geminiCli: {
    name: 'Gemini CLI',
    publicModel: GEMINI_CLI_MODEL,
    post: (e2e) =>
      fetch(`${e2e.url}/v1beta/models/${GEMINI_CLI_MODEL}:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'x-goog-api-key': e2e.token, 'content-type': 'application/json' },
        body: JSON.stringify(geminiCliBody),
      }),
  },
  codex: {
    name: 'Codex',
    publicModel: RESPONSES_MODEL,
    post: (e2e) =>
      fetch(`${e2e.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json', accept: 'text/event-stream', originator: 'codex_cli_rs' },
        body: JSON.stringify(codexRequest),
      }),
  },
  codex2: {
    name: 'Codex 0.171.0',
    publicModel: codex2Body.model,
    post: (e2e) => fetch(`${e2e.url}/v1/responses`, { method: 'POST', headers: agentHeaders(codex2, e2e.token), body: JSON.stringify(codex2Body) }),
  },
};

/** A chat channel type in front of the simulator: where it is, and the model calls it makes there. */
interface ChannelKind {
  type: ChannelType;
  baseUrl(sim: UpstreamSim): string;
  calls(sim: UpstreamSim): RecordedRequest[];
}

const modelCall = (request: RecordedRequest): boolean => request.method === 'POST' && /\/(chat\/completions|messages|models\/[^/]+:\w+)$/.test(request.path);

const kinds: Record<'openai' | 'anthropic' | 'gemini', ChannelKind> = {
  // The chat-only address: a Responses caller is bridged to Chat Completions, as on a server without /v1/responses.
  openai: { type: 'openai', baseUrl: (sim) => sim.chatOnlyBaseUrl, calls: (sim) => sim.requests.filter(modelCall) },
  anthropic: { type: 'anthropic', baseUrl: (sim) => sim.anthropicBaseUrl, calls: (sim) => sim.requests.filter(modelCall) },
  gemini: { type: 'gemini', baseUrl: (sim) => sim.geminiBaseUrl, calls: (sim) => sim.requests.filter(modelCall) },
};

interface Case {
  agent: keyof typeof agents;
  kind: keyof typeof kinds;
  /** What the channel maps the agent's model to. */
  upstreamModel: string;
  /** The x-relay-adjusted header, or null when nothing was changed. */
  adjusted: string | null;
  /** What the simulator received, in the channel's dialect. */
  reached(body: Record<string, unknown>): void;
}

const generationConfigOf = (body: Record<string, unknown>) => body['generationConfig'] as Record<string, unknown>;
/** The recorded Codex's exec tool, offered under its namespace in each dialect's own tool shape. */
const CODEX_EXEC = 'functions__exec';

const cases: Case[] = [
  {
    // Defect 1: thinking became reasoning_effort, which gpt-4o refuses; 32000 output tokens over its 16384.
    agent: 'claudeCode',
    kind: 'openai',
    upstreamModel: 'gpt-4o',
    adjusted: 'reasoning_effort dropped; max_completion_tokens 32000->16384',
    reached: (body) => {
      expect(body).not.toHaveProperty('reasoning_effort');
      expect(body['max_completion_tokens']).toBe(16384);
    },
  },
  {
    agent: 'claudeCode',
    kind: 'openai',
    upstreamModel: 'gpt-5',
    adjusted: null,
    reached: (body) => expect(body).toMatchObject({ reasoning_effort: 'high', max_completion_tokens: 32000 }),
  },
  {
    // The caller's own dialect: passed through as sent (model mapped), nothing adjusted.
    agent: 'claudeCode',
    kind: 'anthropic',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    adjusted: null,
    reached: (body) => expect(body).toMatchObject({ max_tokens: 32000, thinking: claudeCodeBody['thinking'] }),
  },
  {
    agent: 'claudeCode',
    kind: 'gemini',
    upstreamModel: 'gemini-2.5-flash',
    adjusted: null,
    reached: (body) => expect(generationConfigOf(body)).toMatchObject({ maxOutputTokens: 32000, thinkingConfig: { thinkingBudget: 24576 } }),
  },
  {
    // The current Claude Code: its effort has no place on gpt-4o, its 128000 output tokens are clamped to the model's limit.
    agent: 'claudeCode2',
    kind: 'openai',
    upstreamModel: 'gpt-4o',
    adjusted: 'reasoning_effort dropped; max_completion_tokens 128000->16384',
    reached: (body) => expect(body).toMatchObject({ max_completion_tokens: 16384 }),
  },
  {
    agent: 'claudeCode2',
    kind: 'anthropic',
    upstreamModel: 'claude-opus-4-6',
    adjusted: null,
    reached: (body) => expect(body).toMatchObject({ max_tokens: 128000, thinking: { type: 'adaptive', display: 'omitted' } }),
  },
  {
    agent: 'claudeCode2',
    kind: 'gemini',
    upstreamModel: 'gemini-2.5-flash',
    adjusted: 'max_completion_tokens 128000->65536',
    reached: (body) => expect(generationConfigOf(body)).toMatchObject({ maxOutputTokens: 65536, thinkingConfig: { thinkingBudget: 8192 } }),
  },
  {
    // Defect 2: topK reached OpenAI as top_k; and gpt-4o takes no reasoning_effort.
    agent: 'geminiCli',
    kind: 'openai',
    upstreamModel: 'gpt-4o',
    adjusted: 'reasoning_effort dropped; top_k dropped',
    reached: (body) => {
      expect(body).toMatchObject({ temperature: 1, top_p: 0.95 });
      expect(body).not.toHaveProperty('top_k');
      expect(body).not.toHaveProperty('reasoning_effort');
    },
  },
  {
    // Defect 3: Claude 4.5 refuses temperature with top_p (temperature kept). Its thinking level HIGH
    // reaches Claude as a thinking budget (issue 29), with which Anthropic takes no top_k (left out, logged).
    agent: 'geminiCli',
    kind: 'anthropic',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    adjusted: 'top_p dropped',
    reached: (body) => {
      expect(body).toMatchObject({ temperature: 1, thinking: { type: 'enabled', budget_tokens: 24576 } });
      expect(body).not.toHaveProperty('top_p');
      expect(body).not.toHaveProperty('top_k');
    },
  },
  {
    agent: 'geminiCli',
    kind: 'gemini',
    upstreamModel: 'gemini-3-flash-preview',
    adjusted: null,
    reached: (body) => expect(generationConfigOf(body)).toEqual(geminiCliBody['generationConfig']),
  },
  {
    agent: 'codex',
    kind: 'openai',
    upstreamModel: 'gpt-4o',
    adjusted: 'reasoning_effort dropped',
    reached: (body) => expect(body).not.toHaveProperty('reasoning_effort'),
  },
  {
    // Its reasoning.effort reaches Claude as a thinking budget (issue 29).
    agent: 'codex',
    kind: 'anthropic',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    adjusted: null,
    reached: (body) => expect(body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } }),
  },
  {
    agent: 'codex',
    kind: 'gemini',
    upstreamModel: 'gemini-2.5-flash',
    // parallel_tool_calls: false is a hint Gemini has no field for.
    adjusted: 'parallel_tool_calls dropped',
    reached: (body) => expect(generationConfigOf(body)).toMatchObject({ thinkingConfig: { thinkingBudget: 8192 } }),
  },
  {
    // Issue 29, defect 1: its additional_tools item (namespace and custom tools) was a 400 on every bridged channel.
    agent: 'codex2',
    kind: 'openai',
    upstreamModel: 'gpt-4o',
    adjusted: 'reasoning_effort dropped',
    reached: (body) => expect(body['tools']).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'custom', custom: expect.objectContaining({ name: CODEX_EXEC }) })])),
  },
  {
    agent: 'codex2',
    kind: 'anthropic',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    // Its reasoning effort reaches Claude as thinking (issue 29): nothing left out.
    adjusted: null,
    reached: (body) => expect(body['tools']).toEqual(expect.arrayContaining([expect.objectContaining({ name: CODEX_EXEC, input_schema: expect.objectContaining({ required: ['input'] }) })])),
  },
  {
    agent: 'codex2',
    kind: 'gemini',
    upstreamModel: 'gemini-2.5-flash',
    // parallel_tool_calls: false is a hint Gemini has no field for.
    adjusted: 'parallel_tool_calls dropped',
    reached: (body) => expect(JSON.stringify(body['tools'])).toContain(`"name":"${CODEX_EXEC}"`),
  },
];

describe('e2e: the coding agents through every chat channel type, against the strict simulator (issue 28)', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it.each(cases.map((entry) => [agents[entry.agent].name, entry.kind, entry.upstreamModel, entry] as const))(
    '%s, %s channel serving %s: succeeds, the adjustments in the header',
    async (_agent, _kind, _model, entry) => {
      const agent = agents[entry.agent];
      const kind = kinds[entry.kind];
      await e2e.addChannel(kind.baseUrl(sim), { type: kind.type, models: [agent.publicModel], model_mapping: { [agent.publicModel]: entry.upstreamModel } });

      const response = await agent.post(e2e);
      const text = await response.text();
      expect({ status: response.status, body: response.status === 200 ? '' : text }).toEqual({ status: 200, body: '' });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-relay-adjusted')).toBe(entry.adjusted);

      // What reached the simulator: one model call (the Responses caller's 404 probe of a chat-only server aside).
      const calls = kind.calls(sim);
      expect(calls).toHaveLength(1);
      const body = calls[0]?.body as Record<string, unknown>;
      if (entry.kind !== 'gemini') expect(body['model']).toBe(entry.upstreamModel);
      else expect(calls[0]?.path).toContain(`/models/${entry.upstreamModel}:`);
      entry.reached(body);
    },
  );
});
