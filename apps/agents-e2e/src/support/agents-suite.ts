import fs from 'node:fs';
import { startRelayProcess, type RelayProcess } from '@chat-relay/e2e-support';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { ensureAgentsInstalled } from './agent-install';
import { OPENCODE_MODEL } from './agents';

/** The only key the simulator accepts. */
const SIM_KEY = 'sk-sim-agents-e2e';

/**
 * The names the agents ask for with their default settings (their recorded requests in
 * test-fixtures/ show them), and opencode's configured one: every channel maps each of them.
 */
export const AGENT_MODELS = ['claude-opus-5-5', 'claude-haiku-4-5-20251001', 'gpt-6.2-sol', 'gemini-3.8-flash', 'gemini-3.5-flash-lite', 'gemini-3.1-pro-preview', OPENCODE_MODEL] as const;

/** A channel type as the suite sets it up in front of the simulator. */
export interface ChannelKind {
  /** How the suite names it. */
  name: 'openai' | 'openai-chat' | 'anthropic' | 'gemini';
  type: 'openai' | 'anthropic' | 'gemini';
  baseUrl(sim: UpstreamSim): string;
  /** The simulator's model every agent model is mapped to on this channel… */
  upstreamModel: string;
  /** …but these. */
  mapped?: Partial<Record<(typeof AGENT_MODELS)[number], string>>;
}

export const CHANNEL_KINDS: readonly ChannelKind[] = [
  // Speaks the Responses API natively: Codex passes through.
  // opencode's OpenAI-compatible provider sends max_tokens, which OpenAI's reasoning models refuse
  // ("Unsupported parameter: 'max_tokens' is not supported with this model. Use
  // 'max_completion_tokens' instead."): a Chat request to an OpenAI channel goes as sent.
  { name: 'openai', type: 'openai', baseUrl: (sim) => sim.baseUrl, upstreamModel: 'gpt-5', mapped: { [OPENCODE_MODEL]: 'gpt-4o' } },
  // Chat Completions only, as most OpenAI-compatible servers: Responses and Messages are bridged.
  { name: 'openai-chat', type: 'openai', baseUrl: (sim) => sim.chatOnlyBaseUrl, upstreamModel: 'gpt-4o' },
  { name: 'anthropic', type: 'anthropic', baseUrl: (sim) => sim.anthropicBaseUrl, upstreamModel: 'claude-opus-4-6' },
  { name: 'gemini', type: 'gemini', baseUrl: (sim) => sim.geminiBaseUrl, upstreamModel: 'gemini-3-flash-preview' },
];

/** A usage row as the suite reads it back. */
export interface UsageRow {
  request_id: string;
  requested_model: string | null;
  upstream_model: string | null;
  channel_id: number | null;
  status: number;
  endpoint: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  error_code: string | null;
}

export interface AgentsSuite {
  sim: UpstreamSim;
  relay: RelayProcess;
  /** Enables `kind`'s channel alone: every agent model now goes there. Returns its id. */
  only(kind: ChannelKind): Promise<number>;
  /** A new token (the agents run side by side, each with its own, so each one's rows are its own). */
  newToken(name: string): Promise<{ id: number; key: string }>;
  /** A token's usage rows, oldest first. */
  rowsOf(tokenId: number): Promise<UsageRow[]>;
}

async function admin<T>(relay: RelayProcess, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${relay.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${relay.adminKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Registers one spec file's hooks: the CLIs installed, the simulator, the built relay, a channel per kind, a token. */
export function useAgentsSuite(): () => AgentsSuite {
  let suite: AgentsSuite | undefined;
  let sim: UpstreamSim | undefined;
  let relay: RelayProcess | undefined;

  beforeAll(async () => {
    ensureAgentsInstalled();
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    relay = await startRelayProcess();
    const started = { sim, relay };
    const ids = new Map<string, number>();
    for (const kind of CHANNEL_KINDS) {
      const mapping = Object.fromEntries(AGENT_MODELS.map((model) => [model, kind.mapped?.[model] ?? kind.upstreamModel]));
      const channel = await admin<{ id: number }>(relay, 'POST', '/api/channels', {
        name: `agents-${kind.name}`,
        type: kind.type,
        base_url: kind.baseUrl(sim),
        keys: [SIM_KEY],
        models: [...AGENT_MODELS],
        model_mapping: mapping,
        enabled: false,
      });
      ids.set(kind.name, channel.id);
    }
    suite = {
      ...started,
      only: async (kind) => {
        for (const [name, id] of ids) await admin(started.relay, 'PATCH', `/api/channels/${id}`, { enabled: name === kind.name });
        return ids.get(kind.name) ?? 0;
      },
      newToken: (name) => admin<{ id: number; key: string }>(started.relay, 'POST', '/api/tokens', { name }),
      rowsOf: async (tokenId) => {
        const page = await admin<{ data: UsageRow[] }>(started.relay, 'GET', `/api/logs?token_id=${tokenId}&per_page=100`);
        return page.data.reverse();
      },
    };
  }, 600_000);

  afterAll(async () => {
    // What reached the simulator, for a look at a failing run (AGENTS_DUMP=<file>).
    const dump = process.env['AGENTS_DUMP'];
    if (dump && sim) fs.writeFileSync(dump, JSON.stringify(sim.requests, null, 1));
    await relay?.close();
    await sim?.close();
  });

  return () => {
    if (!suite) throw new Error('the agents suite did not start (see beforeAll)');
    return suite;
  };
}
