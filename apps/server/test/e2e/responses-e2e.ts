import type { Channel, ChannelType } from '@chat-relay/contract';
import type { RecordedRequest, UpstreamSim, UpstreamSimOptions } from '@chat-relay/upstream-sim';
import type { TestRelayOptions } from '../testing/test-relay';
import { startE2eRelay, type ChannelInput, type E2eRelay } from './e2e-relay';

/** The name every Responses caller here asks for, whichever channel serves it. */
export const RESPONSES_MODEL = 'gpt-4.1';

/**
 * A channel in front of the simulator that a Responses request can reach: an `openai` channel
 * that has the Responses API (passthrough), one that answers 404 for it (bridged once it has
 * learnt so), and the `anthropic` and `gemini` channels (always bridged).
 */
export interface ResponsesChannelKind {
  name: 'openai-native' | 'openai-chat-only' | 'anthropic' | 'gemini';
  type: ChannelType;
  /** What the channel's model_mapping sends upstream for {@link RESPONSES_MODEL}. */
  upstreamModel: string;
  baseUrl(sim: UpstreamSim): string;
  /** Passed through to the simulator's own /v1/responses (true), or bridged through the hub. */
  native: boolean;
  /** The simulator's requests that are model calls through this channel. */
  calls(sim: UpstreamSim): RecordedRequest[];
}

export const responsesChannelKinds: readonly ResponsesChannelKind[] = [
  {
    name: 'openai-native',
    type: 'openai',
    upstreamModel: 'gpt-4.1-2025-04-14',
    baseUrl: (sim) => sim.baseUrl,
    native: true,
    calls: (sim) => sim.requests.filter((request) => request.method === 'POST' && request.path === '/v1/responses'),
  },
  {
    name: 'openai-chat-only',
    type: 'openai',
    upstreamModel: 'gpt-4o',
    baseUrl: (sim) => sim.chatOnlyBaseUrl,
    native: false,
    calls: (sim) => sim.requests.filter((request) => request.path === '/chat-only/v1/chat/completions'),
  },
  {
    name: 'anthropic',
    type: 'anthropic',
    upstreamModel: 'claude-opus-4-5-20251101',
    baseUrl: (sim) => sim.anthropicBaseUrl,
    native: false,
    calls: (sim) => sim.requests.filter((request) => request.path === '/v1/messages'),
  },
  {
    name: 'gemini',
    type: 'gemini',
    upstreamModel: 'gemini-2.5-flash',
    baseUrl: (sim) => sim.geminiBaseUrl,
    native: false,
    calls: (sim) => sim.requests.filter((request) => request.path.startsWith('/v1beta/models/gemini-2.5-flash:')),
  },
];

export interface ResponsesE2e extends E2eRelay {
  sim: UpstreamSim;
  channel: Channel;
  kind: ResponsesChannelKind;
}

/**
 * A relay with one simulator behind one channel of `kind`, serving {@link RESPONSES_MODEL}
 * (mapped to the kind's upstream model); the official `openai` SDK is `e2e.client()`.
 */
export async function startResponsesRelay(
  kind: ResponsesChannelKind,
  channel: ChannelInput = {},
  options: TestRelayOptions = {},
  simOptions: UpstreamSimOptions = {},
): Promise<ResponsesE2e> {
  const e2e = await startE2eRelay(options);
  const sim = await e2e.startSim(simOptions);
  const created = await e2e.addChannel(kind.baseUrl(sim), {
    type: kind.type,
    models: [RESPONSES_MODEL],
    model_mapping: { [RESPONSES_MODEL]: kind.upstreamModel },
    ...channel,
  });
  return { ...e2e, sim, channel: created, kind };
}
