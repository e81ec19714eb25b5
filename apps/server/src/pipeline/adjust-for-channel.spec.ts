import type { ChannelType, ChatCompletionRequest } from '@chat-relay/contract';
import pino from 'pino';
import { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import { LiveChannel } from '../channels/channel-registry';
import { ParameterRefusals } from '../channels/parameter-refusals';
import { newTrace } from './request-context';
import { chatCompletionsDialect, type CallerDialect } from './caller-dialect';
import { adjustForChannel, isAdapted, refusalToRetry, reportAdjustments } from './adjust-for-channel';

const channelOf = (type: ChannelType, id = 1) =>
  new LiveChannel({
    id,
    name: 'c',
    type,
    baseUrl: 'http://127.0.0.1:9/v1',
    keys: ['k'],
    keyStates: [],
    endpoints: null,
    syncedModels: null,
    modelsSyncedAt: null,
    models: ['*'],
    modelMapping: {},
    priority: 0,
    weight: 1,
    enabled: true,
    responsesApi: 'auto',
    timeouts: { connectMs: 1, firstByteMs: 1, idleMs: 1 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  } as ConstructorParameters<typeof LiveChannel>[0]);

const bridged: CallerDialect = { ...chatCompletionsDialect, name: 'gemini', bridge: { completion: (body) => body, stream: () => ({}) as never } };
const request = (extra: Record<string, unknown>) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra }) as ChatCompletionRequest;
const openAiRefusal = (name: string) => JSON.stringify({ error: { message: `Unrecognized request argument supplied: ${name}`, type: 'invalid_request_error', param: null, code: null } });

describe('isAdapted: only what the relay made is changed', () => {
  it('a Chat Completions caller on an OpenAI-compatible channel is not adapted; a bridged dialect, or an anthropic or gemini channel, is', () => {
    expect(isAdapted(chatCompletionsDialect, channelOf('openai'))).toBe(false);
    expect(isAdapted(undefined, channelOf('openai'))).toBe(false);
    expect(isAdapted(bridged, channelOf('openai'))).toBe(true);
    expect(isAdapted(chatCompletionsDialect, channelOf('anthropic'))).toBe(true);
    expect(isAdapted(chatCompletionsDialect, channelOf('gemini'))).toBe(true);
  });
});

describe('refusalToRetry and adjustForChannel', () => {
  it('retries a refused field the request carried, remembers it for the channel and model, and the next request leaves it out up front', () => {
    const deps = { catalogue: new ModelCatalogueService(undefined), refusals: new ParameterRefusals() };
    const channel = channelOf('openai', 7);
    expect(refusalToRetry(deps, request({ top_k: 5 }), channel, 'local-coder', 400, openAiRefusal('top_k'))).toEqual({ field: 'top_k' });
    expect(deps.refusals.of(7, 'local-coder')).toEqual([expect.objectContaining({ field: 'top_k' })]);
    const next = adjustForChannel(deps, request({ top_k: 5, seed: 1 }), channel, 'local-coder');
    expect(next.request).toEqual(request({ seed: 1 }));
    expect(adjustForChannel(deps, request({ top_k: 5 }), channel, 'other-model').adjustments).toEqual([]);
  });

  it('no retry for a field the request did not carry, a limit it did not pass, another status or another text', () => {
    const deps = { refusals: new ParameterRefusals() };
    const channel = channelOf('openai');
    expect(refusalToRetry(deps, request({}), channel, 'm', 400, openAiRefusal('top_k'))).toBeUndefined();
    const tooLarge = JSON.stringify({ error: { message: 'max_tokens is too large: 900. This model supports at most 1000 completion tokens, whereas you provided 900.' } });
    expect(refusalToRetry(deps, request({ max_tokens: 900 }), channel, 'm', 400, tooLarge)).toBeUndefined();
    expect(refusalToRetry(deps, request({ max_tokens: 2000 }), channel, 'm', 400, tooLarge)).toEqual({ field: 'max_tokens', atMost: 1000 });
    expect(refusalToRetry(deps, request({ top_k: 5 }), channel, 'm', 500, openAiRefusal('top_k'))).toBeUndefined();
    expect(refusalToRetry(deps, request({ top_k: 5 }), channel, 'm', 400, '{"error":{"message":"Invalid value"}}')).toBeUndefined();
  });

  it('without a catalogue the request goes as bridged', () => {
    const asked = request({ top_k: 5, max_tokens: 99_999 });
    expect(adjustForChannel({}, asked, channelOf('openai'), 'gpt-4o').request).toBe(asked);
  });
});

describe('reportAdjustments', () => {
  it('logs the served attempt’s adjustments once, with the request id, and renders the header; nothing when there are none', () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const trace = newTrace('req_1', 0);
    expect(reportAdjustments(logger, trace)).toBeUndefined();
    trace.adjustments = [
      { kind: 'dropped', field: 'top_k', reason: 'gpt-4o takes no top_k' },
      { kind: 'clamped', field: 'max_tokens', reason: 'gpt-4o writes at most 16384 tokens', from: 32000, to: 16384 },
    ];
    expect(reportAdjustments(logger, trace)).toBe('top_k dropped; max_tokens 32000->16384');
    expect(lines).toEqual([expect.objectContaining({ requestId: 'req_1', adjusted: 'top_k dropped; max_tokens 32000->16384', msg: 'request adjusted for the model' })]);
  });
});
