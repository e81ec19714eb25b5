import { ChatCompletionRequestSchema, ResponseObjectSchema, ResponseStreamEventSchema, ResponsesRequestSchema, type ResponsesRequest } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { convertResponsesToChat, invalidRequest, isResponsesEndpointMissing, openaiResponsesNativeAdapter, type RelayError } from '@chat-relay/wire';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import pino from 'pino';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { ChannelRecord, NewChannel, Storage } from '../storage/types';
import { closedPort } from '../testing/closed-port';
import { CallerGone } from './caller-gone';
import { ChannelHealth } from './channel-health';
import { ChannelRegistry, channelKeyDigest, type LiveChannel } from './channel-registry';
import type { SseBody } from './pump-sse-stream';
import { relayChatCompletion, type ChatRelayDeps, type ChatRelayResult, type NativeCall, type RelayedRequest, type ServedBy } from './relay-chat-completion';
import { newTrace, type RelayTrace } from './request-context';
import { responsesDialect } from './responses-dialect';
import { UpstreamClient } from './upstream-client';

const KEYS = ['sk-sim-one', 'sk-sim-two', 'sk-sim-three'];
const MODEL = 'gpt-4o';

/** A logger whose JSON lines land in `lines`. */
function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** The whole text a relayed stream writes, once it has ended. */
async function readStream(body: SseBody): Promise<string> {
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

const chat = (text: string, extra: Record<string, unknown> = {}) => ChatCompletionRequestSchema.parse({ model: MODEL, messages: [{ role: 'user', content: text }], ...extra });

/**
 * relayChatCompletion in process: channels in a real SQLite store, routed by the real registry
 * and circuit breakers, sent by the real upstream client to the simulator (which accepts KEYS).
 */
describe('relayChatCompletion: pins, onServed and native endpoints (issue 13)', () => {
  let sim: UpstreamSim;
  let dataDir: string;
  let storage: Storage;
  let deps: ChatRelayDeps;
  let lines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    sim = await startUpstreamSim({ acceptedKeys: KEYS });
  });
  afterAll(() => sim.close());

  beforeEach(() => {
    sim.reset();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-chat-completion-'));
    storage = openSqliteStorage(dataDir);
    const memory = memoryLogger();
    lines = memory.lines;
    deps = { registry: new ChannelRegistry(storage.channels), health: new ChannelHealth(), upstream: new UpstreamClient(), maxRetries: 2, logger: memory.logger };
  });

  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const addChannel = (overrides: Partial<NewChannel> = {}): Promise<ChannelRecord> =>
    storage.channels.create({
      name: 'sim',
      type: 'openai',
      baseUrl: sim.baseUrl,
      keys: KEYS,
      models: [MODEL],
      modelMapping: {},
      priority: 0,
      weight: 1,
      enabled: true,
      timeouts: { connectMs: 2000, firstByteMs: 5000, idleMs: 5000 },
      ...overrides,
    });
  const deadChannel = async (overrides: Partial<NewChannel> = {}) => addChannel({ name: 'dead', baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, ...overrides });

  async function relay(relayed: Partial<RelayedRequest> & Pick<RelayedRequest, 'request'>): Promise<{ result: ChatRelayResult; trace: RelayTrace }> {
    const trace = newTrace('req_spec', performance.now());
    const result = await relayChatCompletion(deps, { publicModel: relayed.request.model, caller: 'token:1', ...relayed }, trace, new CallerGone());
    return { result, trace };
  }

  /** The simulator's model calls: path and the key they were sent with. */
  const calls = () =>
    sim.requests.filter((request) => request.method === 'POST').map((request) => `${request.path} ${String(request.headers['authorization']).replace('Bearer ', '')}`);

  describe('pin', () => {
    it('sends to the pinned channel only, every time, whatever the priorities', async () => {
      await addChannel({ name: 'preferred', priority: 10 });
      const pinned = await addChannel({ name: 'pinned', baseUrl: sim.chatOnlyBaseUrl });
      const gone = invalidRequest('gone', 'previous_response_id');
      for (let index = 0; index < 4; index++) await relay({ request: chat('hi'), pin: { channelId: pinned.id, keyDigest: null, gone } });
      expect(calls().map((call) => call.split(' ')[0])).toEqual(Array(4).fill('/chat-only/v1/chat/completions'));
    });

    it('sends with the key whose sha256 digest is pinned, and rotates when no digest is given', async () => {
      const channel = await addChannel();
      const gone = invalidRequest('gone');
      for (let index = 0; index < 3; index++) await relay({ request: chat('hi'), pin: { channelId: channel.id, keyDigest: channelKeyDigest('sk-sim-three'), gone } });
      expect(calls()).toEqual(Array(3).fill('/v1/chat/completions sk-sim-three'));

      sim.reset();
      for (let index = 0; index < 3; index++) await relay({ request: chat('hi'), pin: { channelId: channel.id, keyDigest: null, gone } });
      expect(new Set(calls().map((call) => call.split(' ')[1]))).toEqual(new Set(KEYS));
    });

    it("falls back to the channel's rotation when the pinned key is no longer among its active keys", async () => {
      const channel = await addChannel({ keys: ['sk-sim-one'] });
      await relay({ request: chat('hi'), pin: { channelId: channel.id, keyDigest: channelKeyDigest('sk-sim-removed'), gone: invalidRequest('gone') } });
      expect(calls()).toEqual(['/v1/chat/completions sk-sim-one']);
    });

    it.each([
      ['deleted', (id: number) => storage.channels.delete(id)],
      ['disabled', (id: number) => storage.channels.update(id, { enabled: false })],
      ['no longer serving the model', (id: number) => storage.channels.update(id, { models: ['gpt-4o-mini'] })],
    ])('throws the given error, sending nothing, when the pinned channel is %s', async (_name, change) => {
      await addChannel({ name: 'other' });
      const pinned = await addChannel({ name: 'pinned' });
      await change(pinned.id);
      deps.registry.invalidate();
      const gone = invalidRequest('Previous response is kept by a channel that is gone.', 'previous_response_id', 'previous_response_unavailable');
      await expect(relay({ request: chat('hi'), pin: { channelId: pinned.id, keyDigest: null, gone } })).rejects.toBe(gone);
      expect(calls()).toEqual([]);
    });

    it('throws model_not_found rather than the pin error when no channel serves the model at all', async () => {
      const pinned = await addChannel();
      const gone = invalidRequest('gone');
      await expect(relay({ request: chat('hi', { model: 'gpt-unknown' }), pin: { channelId: pinned.id, keyDigest: null, gone } })).rejects.toMatchObject({ code: 'model_not_found' });
    });
  });

  describe('onServed', () => {
    it('is told once, with the channel, the key and native: false, for an answer bridged or plain', async () => {
      const channel = await addChannel({ keys: ['sk-sim-two'] });
      const onServed = jest.fn<void, [ServedBy]>();
      const { result } = await relay({ request: chat('hi'), onServed });
      expect(result).toMatchObject({ kind: 'json', body: { choices: [{ message: { content: 'You said: hi' } }] } });
      expect(onServed).toHaveBeenCalledTimes(1);
      const served = onServed.mock.calls[0]?.[0];
      expect({ channel: served?.channel.id, key: served?.key, native: served?.native }).toEqual({ channel: channel.id, key: 'sk-sim-two', native: false });
    });

    it('is told of the attempt that answered, never of those that failed before it', async () => {
      await deadChannel({ priority: 10 });
      const working = await addChannel({ keys: ['sk-sim-one'] });
      const onServed = jest.fn<void, [ServedBy]>();
      const { trace } = await relay({ request: chat('hi'), onServed });
      expect(trace.attempts).toBe(2);
      expect(onServed.mock.calls.map(([served]) => served.channel.id)).toEqual([working.id]);
    });

    it('is never told when every attempt fails, nor for an upstream error answer', async () => {
      const dead = await deadChannel();
      const onServed = jest.fn();
      await expect(relay({ request: chat('hi'), onServed })).rejects.toMatchObject({ status: 502 });
      await storage.channels.delete(dead.id);
      await addChannel({ name: 'refusing' });
      deps.registry.invalidate();
      await expect(relay({ request: chat('[sim:fault=status:400] hi'), onServed })).rejects.toMatchObject({ status: 400 });
      expect(onServed).not.toHaveBeenCalled();
    });

    it('is told once a stream has its first bytes, before the caller reads it', async () => {
      const channel = await addChannel();
      const onServed = jest.fn<void, [ServedBy]>();
      const { result, trace } = await relay({ request: chat('hi', { stream: true }), onServed });
      expect(onServed).toHaveBeenCalledTimes(1);
      expect(onServed.mock.calls[0]?.[0].channel.id).toBe(channel.id);
      if (result.kind !== 'stream') throw new Error('expected a stream');
      expect(await readStream(result.body)).toContain('data: [DONE]');
      await trace.settled;
      expect(onServed).toHaveBeenCalledTimes(1);
    });
  });

  describe('native calls (the Responses API passed through)', () => {
    const body = (fields: Record<string, unknown> = {}): ResponsesRequest => ResponsesRequestSchema.parse({ model: MODEL, input: 'What is the weather in Paris?', ...fields });

    /** What the Responses route hands the pipeline: the hub request, the dialect, the native call. */
    function responsesRelayed(request: ResponsesRequest, native: Partial<NativeCall> = {}) {
      const converted = convertResponsesToChat(request);
      const onBridged = jest.fn();
      const remember = jest.fn<Promise<void>, [LiveChannel]>(async () => undefined);
      const nativeCall: NativeCall = {
        channelType: 'openai',
        adapter: openaiResponsesNativeAdapter,
        body: request,
        headers: {},
        serves: (channel) => channel.type === 'openai' && channel.responsesApi !== 'bridged',
        endpointMissing: { test: (status, text, channel) => channel.responsesApi === 'auto' && isResponsesEndpointMissing(status, text), remember },
        ...native,
      };
      const dialect = responsesDialect({ request, responseId: 'resp_bridged', createdAt: 1_767_225_600, newId: (prefix) => `${prefix}_1`, onBridged });
      return { relayed: { request: converted.request, dialect, native: nativeCall, bridgeWarnings: converted.warnings }, onBridged, remember };
    }

    it('passes the request to a channel that serves it natively, and says so to onServed', async () => {
      const channel = await addChannel();
      const { relayed, onBridged } = responsesRelayed(body());
      const onServed = jest.fn<void, [ServedBy]>();
      const { result } = await relay({ ...relayed, onServed });
      expect(calls().map((call) => call.split(' ')[0])).toEqual(['/v1/responses']);
      if (result.kind !== 'json') throw new Error('expected JSON');
      const response = ResponseObjectSchema.parse(result.body);
      expect(response.id).not.toBe('resp_bridged');
      expect(response.model).toBe(MODEL);
      expect(onBridged).not.toHaveBeenCalled();
      expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[channel.id, true]]);
    });

    it('serves decides per channel: the channel it refuses gets the request bridged through Chat Completions', async () => {
      const nativeChannel = await addChannel({ name: 'native' });
      const bridgedChannel = await addChannel({ name: 'bridged' });
      const served: Array<[number, boolean]> = [];
      for (const channel of [nativeChannel, bridgedChannel]) {
        const { relayed } = responsesRelayed(body(), { serves: (record) => record.id === nativeChannel.id });
        const gone = invalidRequest('gone');
        const { result } = await relay({ ...relayed, pin: { channelId: channel.id, keyDigest: null, gone }, onServed: (by) => served.push([by.channel.id, by.native]) });
        expect(ResponseObjectSchema.safeParse(result.kind === 'json' ? result.body : undefined).success).toBe(true);
      }
      expect(calls().map((call) => call.split(' ')[0])).toEqual(['/v1/responses', '/v1/chat/completions']);
      expect(served).toEqual([
        [nativeChannel.id, true],
        [bridgedChannel.id, false],
      ]);
    });

    it('without serves, every channel of its type takes it natively and others are bridged', async () => {
      const anthropic = await addChannel({ type: 'anthropic', baseUrl: sim.anthropicBaseUrl });
      const { relayed } = responsesRelayed(body(), { serves: undefined });
      const { result } = await relay({ ...relayed, pin: { channelId: anthropic.id, keyDigest: null, gone: invalidRequest('gone') } });
      expect(calls().map((call) => call.split(' ')[0])).toEqual(['/v1/messages']);
      expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged', object: 'response' } });
    });

    it('with nativeOnly, channels that do not serve it natively are never tried', async () => {
      await addChannel({ type: 'anthropic', baseUrl: sim.anthropicBaseUrl });
      await addChannel({ responsesApi: 'bridged' });
      const nativeOnly = invalidRequest('Only a channel with the Responses API can serve this.', 'tools', 'native_only');
      const { relayed } = responsesRelayed(body());
      await expect(relay({ ...relayed, nativeOnly })).rejects.toBe(nativeOnly);
      expect(calls()).toEqual([]);
    });

    describe('endpointMissing', () => {
      it('remembers the channel lacks the endpoint once, and tries the same channel again bridged, spending no retry', async () => {
        deps.maxRetries = 0;
        const channel = await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        const { relayed, remember, onBridged } = responsesRelayed(body());
        const onServed = jest.fn<void, [ServedBy]>();
        const { result, trace } = await relay({ ...relayed, onServed });

        expect(calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses', '/chat-only/v1/chat/completions']);
        expect(remember).toHaveBeenCalledTimes(1);
        expect(remember.mock.calls[0]?.[0].id).toBe(channel.id);
        expect(trace.attempts).toBe(2);
        expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged', status: 'completed' } });
        expect(onBridged).toHaveBeenCalledTimes(1);
        expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[channel.id, false]]);
        expect(lines).toContainEqual(expect.objectContaining({ msg: 'channel lacks the native endpoint; bridging from now on', channelId: channel.id }));
      });

      it('records no failure against the channel, however often it happens', async () => {
        deps.health = new ChannelHealth({ minFailures: 2, perCallerCap: 10, failureRate: 0.1 });
        const channel = await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        for (let index = 0; index < 4; index++) await relay(responsesRelayed(body()).relayed);
        expect(deps.health.snapshot(channel.id)).toMatchObject({ state: 'closed', failures: 0 });
        expect(deps.health.isAvailable(channel.id)).toBe(true);
      });

      it('streams the bridged retry as a Responses event stream', async () => {
        await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        const { relayed, onBridged } = responsesRelayed(body({ stream: true }));
        const { result, trace } = await relay(relayed);
        if (result.kind !== 'stream') throw new Error('expected a stream');
        const text = await readStream(result.body);
        await trace.settled;
        const events = [...text.matchAll(/^data: (.*)$/gm)].map(([, data]) => JSON.parse(data ?? '') as { type: string; sequence_number: number });
        expect(events.every((event) => ResponseStreamEventSchema.safeParse(event).success)).toBe(true);
        expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
        expect(events[events.length - 1]?.type).toBe('response.completed');
        expect(onBridged).toHaveBeenCalledTimes(1);
      });

      it('with nativeOnly: remembers it, bridges nothing, and answers the nativeOnly error', async () => {
        const channel = await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        const nativeOnly = invalidRequest('Only a channel with the Responses API can serve this.', 'tools', 'native_only');
        const { relayed, remember } = responsesRelayed(body());
        await expect(relay({ ...relayed, nativeOnly })).rejects.toBe(nativeOnly);
        expect(calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses']);
        expect(remember).toHaveBeenCalledTimes(1);
        expect(deps.health.snapshot(channel.id)).toMatchObject({ failures: 0 });
      });

      it('with nativeOnly, goes on to another channel that has the endpoint', async () => {
        await addChannel({ name: 'chat only', baseUrl: sim.chatOnlyBaseUrl, priority: 10 });
        const full = await addChannel({ name: 'full' });
        const nativeOnly = invalidRequest('native only');
        const onServed = jest.fn<void, [ServedBy]>();
        const { result } = await relay({ ...responsesRelayed(body()).relayed, nativeOnly, onServed });
        expect(calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses', '/v1/responses']);
        expect(ResponseObjectSchema.safeParse(result.kind === 'json' ? result.body : undefined).success).toBe(true);
        expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[full.id, true]]);
      });

      it('bridges even when remembering fails, and logs why', async () => {
        await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        const { relayed, remember } = responsesRelayed(body());
        remember.mockRejectedValueOnce(new Error('database is locked'));
        const { result } = await relay(relayed);
        expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged' } });
        expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'could not record that a channel lacks an endpoint', err: expect.objectContaining({ message: 'database is locked' }) }));
      });

      it('when test says no, the 404 is an ordinary upstream answer: not remembered, not bridged', async () => {
        await addChannel({ baseUrl: sim.chatOnlyBaseUrl });
        const { relayed, remember } = responsesRelayed(body());
        const native = { ...relayed.native, endpointMissing: { test: () => false, remember } };
        const failure = await relay({ ...relayed, native }).catch((error: RelayError) => error);
        expect(failure).toMatchObject({ status: 404 });
        expect(remember).not.toHaveBeenCalled();
        expect(calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses']);
      });
    });
  });
});
