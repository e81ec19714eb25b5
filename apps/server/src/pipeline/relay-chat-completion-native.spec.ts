import { ResponseObjectSchema, ResponseStreamEventSchema, ResponsesRequestSchema, type ResponsesRequest } from '@chat-relay/contract';
import { convertResponsesToChat, inspectResponsesRequest, invalidRequest, isResponsesEndpointMissing, type RelayError } from '@chat-relay/wire';
import { HARNESS_MODEL, readStream, useChatRelayHarness } from '../../test/testing/chat-relay-harness';
import { ChannelHealth } from '../channels/channel-health';
import type { LiveChannel } from '../channels/channel-registry';
import type { NativeCall, ServedBy } from './relay-chat-completion';
import { responsesDialect } from '../dialects/responses/responses-dialect';

/**
 * relayChatCompletion with a native call, as the Responses route makes it (see
 * useChatRelayHarness): which channels take it natively, and a channel without the endpoint.
 */
describe('relayChatCompletion: native calls (issue 13)', () => {
  const h = useChatRelayHarness();

  const body = (fields: Record<string, unknown> = {}): ResponsesRequest => ResponsesRequestSchema.parse({ model: HARNESS_MODEL, input: 'What is the weather in Paris?', ...fields });

  /** What the Responses route hands the pipeline: the hub request, the dialect, the native call. */
  function responsesRelayed(request: ResponsesRequest, native: Partial<NativeCall> = {}) {
    const converted = convertResponsesToChat(request);
    const onBridged = jest.fn();
    const remember = jest.fn<Promise<void>, [LiveChannel]>(async () => undefined);
    const nativeCall: NativeCall = {
      dialect: 'responses',
      body: request,
      headers: {},
      inspect: inspectResponsesRequest,
      serves: (channel) => channel.responsesApi !== 'bridged',
      endpointMissing: { test: (status, text, channel) => channel.responsesApi === 'auto' && isResponsesEndpointMissing(status, text), remember },
      ...native,
    };
    const dialect = responsesDialect({ request, responseId: 'resp_bridged', createdAt: 1_767_225_600, newId: (prefix) => `${prefix}_1`, onBridged });
    return { relayed: { request: converted.request, dialect, native: nativeCall, bridgeWarnings: converted.warnings }, onBridged, remember };
  }

  it('passes the request to a channel that serves it natively, and says so to onServed', async () => {
    const channel = await h.addChannel();
    const { relayed, onBridged } = responsesRelayed(body());
    const onServed = jest.fn<void, [ServedBy]>();
    const { result } = await h.relay({ ...relayed, onServed });
    expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/v1/responses']);
    if (result.kind !== 'json') throw new Error('expected JSON');
    const response = ResponseObjectSchema.parse(result.body);
    expect(response.id).not.toBe('resp_bridged');
    expect(response.model).toBe(HARNESS_MODEL);
    expect(onBridged).not.toHaveBeenCalled();
    expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[channel.id, true]]);
  });

  it('serves decides per channel: the channel it refuses gets the request bridged through Chat Completions', async () => {
    const nativeChannel = await h.addChannel({ name: 'native' });
    const bridgedChannel = await h.addChannel({ name: 'bridged' });
    const served: Array<[number, boolean]> = [];
    for (const channel of [nativeChannel, bridgedChannel]) {
      const { relayed } = responsesRelayed(body(), { serves: (record) => record.id === nativeChannel.id });
      const gone = invalidRequest('gone');
      const { result } = await h.relay({ ...relayed, pin: { channelId: channel.id, keyDigest: null, gone }, onServed: (by) => served.push([by.channel.id, by.native]) });
      expect(ResponseObjectSchema.safeParse(result.kind === 'json' ? result.body : undefined).success).toBe(true);
    }
    expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/v1/responses', '/v1/chat/completions']);
    expect(served).toEqual([
      [nativeChannel.id, true],
      [bridgedChannel.id, false],
    ]);
  });

  it('without serves, every channel of its type takes it natively and others are bridged', async () => {
    const anthropic = await h.addChannel({ type: 'anthropic', baseUrl: h.sim.anthropicBaseUrl });
    const { relayed } = responsesRelayed(body(), { serves: undefined });
    const { result } = await h.relay({ ...relayed, pin: { channelId: anthropic.id, keyDigest: null, gone: invalidRequest('gone') } });
    expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/v1/messages']);
    expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged', object: 'response' } });
  });

  it('with nativeOnly, channels that do not serve it natively are never tried', async () => {
    await h.addChannel({ type: 'anthropic', baseUrl: h.sim.anthropicBaseUrl });
    await h.addChannel({ responsesApi: 'bridged' });
    const nativeOnly = invalidRequest('Only a channel with the Responses API can serve this.', 'tools', 'native_only');
    const { relayed } = responsesRelayed(body());
    await expect(h.relay({ ...relayed, nativeOnly })).rejects.toBe(nativeOnly);
    expect(h.calls()).toEqual([]);
  });

  describe('endpointMissing', () => {
    it('remembers the channel lacks the endpoint once, and tries the same channel again bridged, spending no retry', async () => {
      h.deps.maxRetries = 0;
      const channel = await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      const { relayed, remember, onBridged } = responsesRelayed(body());
      const onServed = jest.fn<void, [ServedBy]>();
      const { result, trace } = await h.relay({ ...relayed, onServed });

      expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses', '/chat-only/v1/chat/completions']);
      expect(remember).toHaveBeenCalledTimes(1);
      expect(remember.mock.calls[0]?.[0].id).toBe(channel.id);
      expect(trace.attempts).toBe(2);
      expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged', status: 'completed' } });
      expect(onBridged).toHaveBeenCalledTimes(1);
      expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[channel.id, false]]);
      expect(h.lines).toContainEqual(expect.objectContaining({ msg: 'channel lacks the native endpoint; bridging from now on', channelId: channel.id }));
    });

    it('records no failure against the channel, however often it happens', async () => {
      h.deps.health = new ChannelHealth({ minFailures: 2, perCallerCap: 10, failureRate: 0.1 });
      const channel = await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      for (let index = 0; index < 4; index++) await h.relay(responsesRelayed(body()).relayed);
      expect(h.deps.health.snapshot(channel.id)).toMatchObject({ state: 'closed', failures: 0 });
      expect(h.deps.health.isAvailable(channel.id)).toBe(true);
    });

    it('streams the bridged retry as a Responses event stream', async () => {
      await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      const { relayed, onBridged } = responsesRelayed(body({ stream: true }));
      const { result, trace } = await h.relay(relayed);
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
      const channel = await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      const nativeOnly = invalidRequest('Only a channel with the Responses API can serve this.', 'tools', 'native_only');
      const { relayed, remember } = responsesRelayed(body());
      await expect(h.relay({ ...relayed, nativeOnly })).rejects.toBe(nativeOnly);
      expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses']);
      expect(remember).toHaveBeenCalledTimes(1);
      expect(h.deps.health.snapshot(channel.id)).toMatchObject({ failures: 0 });
    });

    it('with nativeOnly, goes on to another channel that has the endpoint', async () => {
      await h.addChannel({ name: 'chat only', baseUrl: h.sim.chatOnlyBaseUrl, priority: 10 });
      const full = await h.addChannel({ name: 'full' });
      const nativeOnly = invalidRequest('native only');
      const onServed = jest.fn<void, [ServedBy]>();
      const { result } = await h.relay({ ...responsesRelayed(body()).relayed, nativeOnly, onServed });
      expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses', '/v1/responses']);
      expect(ResponseObjectSchema.safeParse(result.kind === 'json' ? result.body : undefined).success).toBe(true);
      expect(onServed.mock.calls.map(([served]) => [served.channel.id, served.native])).toEqual([[full.id, true]]);
    });

    it('bridges even when remembering fails, and logs why', async () => {
      await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      const { relayed, remember } = responsesRelayed(body());
      remember.mockRejectedValueOnce(new Error('database is locked'));
      const { result } = await h.relay(relayed);
      expect(result).toMatchObject({ kind: 'json', body: { id: 'resp_bridged' } });
      expect(h.lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'could not record that a channel lacks an endpoint', err: expect.objectContaining({ message: 'database is locked' }) }));
    });

    it('when test says no, the 404 is an ordinary upstream answer: not remembered, not bridged', async () => {
      await h.addChannel({ baseUrl: h.sim.chatOnlyBaseUrl });
      const { relayed, remember } = responsesRelayed(body());
      const native = { ...relayed.native, endpointMissing: { test: () => false, remember } };
      const failure = await h.relay({ ...relayed, native }).catch((error: RelayError) => error);
      expect(failure).toMatchObject({ status: 404 });
      expect(remember).not.toHaveBeenCalled();
      expect(h.calls().map((call) => call.split(' ')[0])).toEqual(['/chat-only/v1/responses']);
    });
  });
});
