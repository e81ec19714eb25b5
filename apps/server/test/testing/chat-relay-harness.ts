import { ChatCompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import pino from 'pino';
import { CallerGone } from '../../src/core/caller-gone';
import { ChannelHealth } from '../../src/channels/channel-health';
import { ChannelRegistry } from '../../src/channels/channel-registry';
import type { SseBody } from '../../src/pipeline/stream/pump-sse-stream';
import { relayChatCompletion, type ChatRelayDeps, type ChatRelayResult, type DialectHooks, type RelayedRequest } from '../../src/pipeline/relay-chat-completion';
import { newTrace, type RelayTrace } from '../../src/pipeline/request-context';
import { UpstreamClient } from '../../src/channels/upstream/upstream-client';
import { AccessTokens } from '../../src/channels/cloud/access-tokens';
import { CloudAuth } from '../../src/channels/cloud/cloud-auth';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite';
import type { ChannelRecord, NewChannel, Storage } from '../../src/storage/types';
import { closedPort } from './closed-port';

/** The keys the harness's simulator accepts, and every channel gets unless told otherwise. */
export const HARNESS_KEYS = ['sk-sim-one', 'sk-sim-two', 'sk-sim-three'];
export const HARNESS_MODEL = 'gpt-4o';

/** A chat request for the harness's model. */
export const chatRequest = (text: string, extra: Record<string, unknown> = {}): ChatCompletionRequest =>
  ChatCompletionRequestSchema.parse({ model: HARNESS_MODEL, messages: [{ role: 'user', content: text }], ...extra });

/** The whole text a relayed stream writes, once it has ended. */
export async function readStream(body: SseBody): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const finished = new Promise((resolve) => sink.on('finish', resolve));
  body.pipe(sink);
  await finished;
  return Buffer.concat(chunks).toString('utf8');
}

/** A relayed request as specs write it: the dialect's hooks beside its fields. */
export type HarnessRelayed = Partial<RelayedRequest> & Pick<RelayedRequest, 'request'> & DialectHooks;

export interface ChatRelayHarness {
  sim: UpstreamSim;
  storage: Storage;
  /** Fresh per test; a spec may swap a part (maxRetries, health) before relaying. */
  deps: ChatRelayDeps;
  /** The JSON lines the relay logged in this test. */
  lines: Array<Record<string, unknown>>;
  /** An `openai` channel to the simulator serving the harness's model with its keys, as overridden. */
  addChannel(overrides?: Partial<NewChannel>): Promise<ChannelRecord>;
  /** A channel whose connections are refused. */
  deadChannel(overrides?: Partial<NewChannel>): Promise<ChannelRecord>;
  /** relayChatCompletion as the pipeline calls it, for `token:1`. */
  relay(relayed: HarnessRelayed): Promise<{ result: ChatRelayResult; trace: RelayTrace }>;
  /** The simulator's POSTs in this test: `<path> <key>`. */
  calls(): string[];
}

/** The harness's state, there only while a describe (simulator) and a test (store, deps) run. */
class Harness implements ChatRelayHarness {
  simulator: UpstreamSim | undefined;
  test: { dataDir: string; storage: Storage; deps: ChatRelayDeps; lines: Array<Record<string, unknown>> } | undefined;

  private get running() {
    if (!this.test) throw new Error('the chat relay harness is used outside a test');
    return this.test;
  }

  get sim(): UpstreamSim {
    if (!this.simulator) throw new Error('the chat relay harness is used outside its describe');
    return this.simulator;
  }

  get storage(): Storage {
    return this.running.storage;
  }

  get deps(): ChatRelayDeps {
    return this.running.deps;
  }

  get lines(): Array<Record<string, unknown>> {
    return this.running.lines;
  }

  addChannel(overrides: Partial<NewChannel> = {}): Promise<ChannelRecord> {
    return this.storage.channels.create({
      name: 'sim',
      type: 'openai',
      baseUrl: this.sim.baseUrl,
      keys: HARNESS_KEYS,
      models: [HARNESS_MODEL],
      modelMapping: {},
      priority: 0,
      weight: 1,
      enabled: true,
      timeouts: { connectMs: 2000, firstByteMs: 5000, idleMs: 5000 },
      ...overrides,
    });
  }

  async deadChannel(overrides: Partial<NewChannel> = {}): Promise<ChannelRecord> {
    return this.addChannel({ name: 'dead', baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, ...overrides });
  }

  async relay({ pin, onServed, advisory, relayFunction, ...relayed }: HarnessRelayed): Promise<{ result: ChatRelayResult; trace: RelayTrace }> {
    const trace = newTrace('req_spec', performance.now());
    const hooks = { pin, onServed, advisory, relayFunction };
    const result = await relayChatCompletion(this.deps, { publicModel: relayed.request.model, caller: 'token:1', hooks, ...relayed }, trace, new CallerGone());
    return { result, trace };
  }

  calls(): string[] {
    return this.sim.requests.filter((request) => request.method === 'POST').map((request) => `${request.path} ${String(request.headers['authorization']).replace('Bearer ', '')}`);
  }
}

/**
 * relayChatCompletion in process, as its specs drive it: channels in a real SQLite store, routed
 * by the real registry and circuit breakers, sent by the real upstream client to a simulator that
 * accepts HARNESS_KEYS. Call it inside a `describe`: it adds the hooks that start and stop it
 * (one simulator per describe, a fresh store and deps per test).
 */
export function useChatRelayHarness(): ChatRelayHarness {
  const harness = new Harness();

  beforeAll(async () => {
    harness.simulator = await startUpstreamSim({ acceptedKeys: HARNESS_KEYS });
  });
  afterAll(() => harness.simulator?.close());

  beforeEach(() => {
    harness.sim.reset();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-chat-completion-'));
    const storage = openSqliteStorage(dataDir);
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const deps = { registry: new ChannelRegistry(storage.channels), health: new ChannelHealth(), upstream: new UpstreamClient(new CloudAuth(new AccessTokens())), maxRetries: 2, logger };
    harness.test = { dataDir, storage, deps, lines };
  });

  afterEach(async () => {
    const test = harness.test;
    harness.test = undefined;
    if (!test) return;
    await test.storage.close();
    fs.rmSync(test.dataDir, { recursive: true, force: true });
  });

  return harness;
}
