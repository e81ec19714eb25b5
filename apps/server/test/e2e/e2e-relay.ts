import type { Server } from 'node:http';
import type { Channel, ChannelCreate } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim, type UpstreamSimOptions } from '@chat-relay/upstream-sim';
import OpenAI, { type ClientOptions } from 'openai';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { createTestRelay, defaultServerOptions, listen, type TestRelay, type TestRelayOptions } from '../testing/test-relay';

/** The only key the simulators accept: the channel's, never the relay token. */
export const SIM_KEY = 'sk-sim-key';

export type ChannelInput = Partial<ChannelCreate>;

/**
 * A relay on a real port with a token made over its admin API, simulators to route to, and the
 * official `openai` SDK as the caller — everything on 127.0.0.1, port 0.
 */
export interface E2eRelay {
  relay: TestRelay;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The HTTP server, for a spec that watches requests as Node hands them over. */
  server: Server;
  /** The API key of a token created through `POST /api/tokens`. */
  token: string;
  /** That token's id, for the admin API (`PATCH /api/tokens/{id}`). */
  tokenId: number;
  /** An SDK client on the relay's `/v1`; SDK retries off unless asked for. */
  client(options?: Partial<ClientOptions>): OpenAI;
  /** Starts a simulator that accepts only {@link SIM_KEY}; closed with the relay. */
  startSim(options?: UpstreamSimOptions): Promise<UpstreamSim>;
  /** `POST /api/channels` for an OpenAI-compatible upstream at `baseUrl`. */
  addChannel(baseUrl: string, input?: ChannelInput): Promise<Channel>;
  /** `POST /v1/chat/completions` with fetch, for the raw status, headers and bytes. */
  postChat(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Waits until the usage log holds `count` rows (flushing it), then returns them oldest first. */
  usageRows(count: number): Promise<StoredUsageLogEntry[]>;
  close(): Promise<void>;
}

async function adminPost<T>(url: string, adminKey: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function startE2eRelay(options: TestRelayOptions = {}): Promise<E2eRelay> {
  const relay = await createTestRelay(options);
  const http = await listen(relay.app, defaultServerOptions(options.env));
  const sims: UpstreamSim[] = [];
  const { key: token, id: tokenId } = await adminPost<{ key: string; id: number }>(http.url, relay.adminKey, '/api/tokens', { name: 'e2e' });

  const usageRows = async (count: number): Promise<StoredUsageLogEntry[]> => {
    const deadline = Date.now() + 3000;
    for (;;) {
      await relay.services.recorder.flush();
      const rows = await relay.storage.usageLog.recent(count + 10);
      if (rows.length >= count || Date.now() > deadline) return rows.reverse();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  return {
    relay,
    url: http.url,
    server: http.server,
    token,
    tokenId,
    client: (clientOptions = {}) => new OpenAI({ apiKey: token, baseURL: `${http.url}/v1`, maxRetries: 0, ...clientOptions }),
    startSim: async (simOptions = {}) => {
      const sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY], ...simOptions });
      sims.push(sim);
      return sim;
    },
    addChannel: (baseUrl, input = {}) =>
      adminPost<Channel>(http.url, relay.adminKey, '/api/channels', {
        name: `sim ${baseUrl}`,
        type: 'openai',
        base_url: baseUrl,
        keys: [SIM_KEY],
        models: ['gpt-4o'],
        ...input,
      }),
    postChat: (body, headers = {}) =>
      fetch(`${http.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    usageRows,
    close: async () => {
      await http.close();
      await relay.close();
      await Promise.all(sims.map((sim) => sim.close()));
    },
  };
}

export type E2eRelayWithSim = E2eRelay & { sim: UpstreamSim; channel: Channel };

/** A relay with one simulator behind one channel serving `gpt-4o` (plus `input`). */
export async function startRelayWithSim(input: ChannelInput = {}, options: TestRelayOptions = {}): Promise<E2eRelayWithSim> {
  const e2e = await startE2eRelay(options);
  const sim = await e2e.startSim();
  const channel = await e2e.addChannel(sim.baseUrl, input);
  return { ...e2e, sim, channel };
}
