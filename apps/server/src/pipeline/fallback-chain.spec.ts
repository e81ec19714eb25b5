import { RelayError, upstreamTimeout, noAvailableChannel, modelNotFound, upstreamError, invalidRequest } from '@chat-relay/wire';
import pino from 'pino';
import { LocalChangeFeed } from '../core/change-feed';
import {
  buildChain,
  chainFieldsOf,
  classifyFailure,
  exceedsEveryWindow,
  fallsBack,
  REQUEST_CHAIN_TRIGGERS,
  withoutChainFields,
  type ChainRule,
  type FallbackChain,
} from './fallback-chain';
import { relayHops, type PlannedHop } from './fallback-hops';
import { FallbackRules } from './fallback-rules';
import { newTrace } from './request-context';
import type { ChatRelayResult } from './relay-chat-completion';

const rule = (fields: Partial<ChainRule>): ChainRule => ({ id: 1, model: 'claude-*', fallbacks: ['gpt-4o'], triggers: ['rate_limited'], enabled: true, ...fields });
const source = (rules: ChainRule[]) => ({ ruleFor: (model: string) => rules.find((candidate) => candidate.enabled && new RegExp(`^${candidate.model.replace('*', '.*')}$`).test(model)) });

describe('buildChain', () => {
  it("takes a request's `models` (OpenRouter) or `fallbacks` (LiteLLM), with the request's triggers and context_length", () => {
    expect(buildChain({ model: 'a', models: ['a', 'b', 'c'] }, undefined)).toEqual({ models: ['a', 'b', 'c'], triggers: new Set(REQUEST_CHAIN_TRIGGERS), source: 'request' });
    expect(buildChain({ model: 'a', fallbacks: ['b'] }, undefined)?.models).toEqual(['a', 'b']);
    expect(REQUEST_CHAIN_TRIGGERS).toContain('context_length');
  });

  it("prefers the request's own chain to a rule, and falls back on the first matching enabled rule otherwise", () => {
    const rules = source([rule({ id: 1, enabled: false, fallbacks: ['x'] }), rule({ id: 2, fallbacks: ['gpt-4o', 'gemini'], triggers: ['timeout'] })]);
    expect(buildChain({ model: 'claude-opus', fallbacks: ['b'] }, rules)?.models).toEqual(['claude-opus', 'b']);
    expect(buildChain({ model: 'claude-opus' }, rules)).toEqual({ models: ['claude-opus', 'gpt-4o', 'gemini'], triggers: new Set(['timeout']), source: 'rule' });
    expect(buildChain({ model: 'gpt-4o' }, rules)).toBeUndefined();
  });

  it('drops repeats; a list of one is still a chain (its fields are stripped), a rule of one is none; more than ten models, or both fields, or a `model` not first in `models` is a 400', () => {
    expect(buildChain({ model: 'a', models: ['a', 'b', 'a', 'b'] }, undefined)?.models).toEqual(['a', 'b']);
    expect(buildChain({ model: 'a', models: ['a'] }, undefined)?.models).toEqual(['a']);
    expect(buildChain({ model: 'a', fallbacks: ['a'] }, undefined)?.models).toEqual(['a']);
    expect(buildChain({ model: 'claude-x' }, source([rule({ fallbacks: ['claude-x'] })]))).toBeUndefined();
    const eleven = Array.from({ length: 11 }, (_, index) => `m${index}`);
    expect(() => buildChain({ model: 'm0', models: eleven }, undefined)).toThrow(/at most 10 models/);
    expect(() => buildChain({ model: 'a', models: ['a'], fallbacks: ['b'] }, undefined)).toThrow(/either 'models'/);
    expect(() => buildChain({ model: 'b', models: ['a', 'b'] }, undefined)).toThrow(/first entry of 'models'/);
  });

  it('reads the chain fields of a native body and refuses what is not a list of names', () => {
    expect(chainFieldsOf({ model: 'a', models: ['a', 'b'] })).toEqual({ models: ['a', 'b'], fallbacks: undefined });
    expect(chainFieldsOf(undefined)).toEqual({});
    expect(() => chainFieldsOf({ fallbacks: 'b' })).toThrow(RelayError);
    expect(() => chainFieldsOf({ models: [] })).toThrow(/non-empty list/);
  });

  it('strips the chain fields, and leaves a body without them as the same object', () => {
    const plain = { model: 'a', messages: [] };
    expect(withoutChainFields(plain)).toBe(plain);
    expect(withoutChainFields({ model: 'a', models: ['a', 'b'], fallbacks: ['c'], temperature: 1 })).toEqual({ model: 'a', temperature: 1 });
  });
});

describe('classifyFailure', () => {
  const status = (code: number, errorCode: string | null, message = 'x') => new RelayError({ status: code, type: 'upstream_error', code: errorCode, message });

  it.each([
    ['a 502 from an upstream 429 (OpenAI)', 'rate_limited', status(502, 'rate_limit_exceeded')],
    ['a 502 from an upstream 429 (Anthropic)', 'rate_limited', status(502, 'rate_limit_error')],
    ['a 502 from an upstream 429 (Gemini)', 'rate_limited', status(502, 'RESOURCE_EXHAUSTED')],
    ['a 429', 'rate_limited', status(429, null)],
    ['overloaded (Anthropic 529)', 'upstream_error', status(502, 'overloaded_error')],
    ['a plain 5xx', 'upstream_error', upstreamError('boom', 'upstream_500')],
    ['the relay’s timeout', 'timeout', upstreamTimeout()],
    ['no channel available', 'no_channel', noAvailableChannel('m')],
    ['no channel serves the model', 'no_channel', modelNotFound('m')],
    ['OpenAI context_length_exceeded', 'context_length', status(400, 'context_length_exceeded')],
    ["Anthropic's words", 'context_length', status(400, null, 'prompt is too long: 208310 tokens > 200000 maximum')],
    ["Gemini's words", 'context_length', status(400, 'INVALID_ARGUMENT', 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).')],
    ['a content filter', 'content_filtered', status(400, 'content_filter')],
  ] as const)('%s → %s', (_name, trigger, error) => {
    expect(classifyFailure(error)).toBe(trigger);
  });

  it('a 400 about the request, an auth or a quota refusal of the relay is no class: never a hop', () => {
    expect(classifyFailure(invalidRequest("Invalid 'temperature'", 'temperature'))).toBeUndefined();
    expect(classifyFailure(status(403, 'model_not_allowed'))).toBeUndefined();
    expect(classifyFailure(status(401, 'invalid_api_key'))).toBeUndefined();
  });

  it('only a class among the chain’s triggers moves on', () => {
    const chain: FallbackChain = { models: ['a', 'b'], triggers: new Set(['timeout']), source: 'rule' };
    expect(fallsBack(chain, upstreamTimeout())).toBe('timeout');
    expect(fallsBack(chain, noAvailableChannel('a'))).toBeUndefined();
  });

  it('skips before sending only when every window is known and smaller than the prompt', () => {
    expect(exceedsEveryWindow(100, [50, 80])).toBe(true);
    expect(exceedsEveryWindow(100, [50, 200])).toBe(false);
    expect(exceedsEveryWindow(100, [50, undefined])).toBe(false);
    expect(exceedsEveryWindow(100, [])).toBe(false);
  });
});

describe('relayHops', () => {
  const logger = pino({ level: 'silent' });
  const hop = (model: string, contextWindow?: number): PlannedHop => ({
    model,
    resolved: { request: { model, messages: [{ role: 'user', content: 'Hi' }] }, assistantId: null, assistant: null, family: null },
    channels: [{ upstreamModel: () => `${model}-upstream`, contextWindow } as unknown as PlannedHop['channels'][number]],
  });
  const chain = (models: string[], triggers: FallbackChain['triggers'] = new Set(REQUEST_CHAIN_TRIGGERS)): FallbackChain => ({ models, triggers, source: 'request' });
  const answer: ChatRelayResult = { kind: 'json', body: {} };
  const deps = (windows: Record<string, number> = {}) => ({
    logger,
    catalogue: { facts: (model: string) => ({ contextWindow: windows[model] }) as never },
    countPrompt: async () => 1000,
  }) as unknown as Parameters<typeof relayHops>[0];

  it('tries each hop in order until one answers, pricing each by its own model; the last failure is the answer when all fail', async () => {
    const trace = newTrace('r', 0);
    const tried: string[] = [];
    const sent: string[] = [];
    const outcome = await relayHops(deps(), chain(['a', 'b', 'c']), [hop('a'), hop('b'), hop('c')], { trace, signal: { aborted: false } as never, tried }, async (next) => {
      sent.push(`${next.model}@${trace.pricedModel}`);
      if (next.model !== 'c') throw upstreamError('down', 'upstream_503');
      return answer;
    });
    expect(outcome.served.model).toBe('c');
    expect(sent).toEqual(['a@a', 'b@b', 'c@c']);
    expect(tried).toEqual(['a', 'b', 'c']);

    const last = upstreamTimeout();
    await expect(
      relayHops(deps(), chain(['a', 'b']), [hop('a'), hop('b')], { trace, signal: { aborted: false } as never, tried: [] }, async (next) => {
        throw next.model === 'a' ? noAvailableChannel('a') : last;
      }),
    ).rejects.toBe(last);
  });

  it('stops at a failure that is not a trigger, and when the caller has gone', async () => {
    const trace = newTrace('r', 0);
    const refused = invalidRequest('bad', 'temperature');
    const relay = jest.fn(async () => {
      throw refused;
    });
    await expect(relayHops(deps(), chain(['a', 'b']), [hop('a'), hop('b')], { trace, signal: { aborted: false } as never, tried: [] }, relay)).rejects.toBe(refused);
    const gone = jest.fn(async () => {
      throw upstreamError('down', 'upstream_503');
    });
    await expect(relayHops(deps(), chain(['a', 'b']), [hop('a'), hop('b')], { trace, signal: { aborted: true } as never, tried: [] }, gone)).rejects.toThrow('down');
    expect(relay).toHaveBeenCalledTimes(1);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('skips a hop whose every window is smaller than the prompt before sending — never the last one', async () => {
    const sent: string[] = [];
    const moves: string[] = [];
    const tried: string[] = [];
    const relay = async (next: PlannedHop) => {
      sent.push(next.model);
      return answer;
    };
    const small = { 'a-upstream': 500, 'b-upstream': 500 };
    const outcome = await relayHops(deps(small), chain(['a', 'b']), [hop('a'), hop('b')], { trace: newTrace('r', 0), signal: { aborted: false } as never, tried }, relay, (from, to, trigger) => moves.push(`${from}>${to}:${trigger}`));
    expect(outcome.served.model).toBe('b');
    expect(sent).toEqual(['b']);
    expect(tried).toEqual(['a', 'b']);
    expect(moves).toEqual(['a>b:context_length']);
    // Without context_length among the triggers, the model is tried as it is.
    sent.length = 0;
    await relayHops(deps(small), chain(['a', 'b'], new Set(['timeout'])), [hop('a'), hop('b')], { trace: newTrace('r', 0), signal: { aborted: false } as never, tried: [] }, relay);
    expect(sent).toEqual(['a']);
  });
});

describe('FallbackRules (the in-memory cache)', () => {
  it('answers the first enabled matching rule, and reloads on the change feed so every instance agrees', async () => {
    const stored: ChainRule[] = [];
    const feed = new LocalChangeFeed();
    const list = jest.fn(async () => stored.map((entry) => ({ ...entry, fallbacks: [...entry.fallbacks], triggers: [...entry.triggers], createdAt: '', updatedAt: '' })));
    const cache = new FallbackRules({ list }, feed, () => undefined);
    const other = new FallbackRules({ list }, feed, () => undefined);
    await cache.load();
    expect(cache.ruleFor('claude-opus')).toBeUndefined();
    stored.push(rule({ id: 1, enabled: false }), rule({ id: 2, fallbacks: ['gpt-4.1'] }));
    await cache.changed();
    expect(cache.ruleFor('claude-opus')?.id).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(other.ruleFor('claude-opus')?.fallbacks).toEqual(['gpt-4.1']);
    expect(cache.ruleFor('gpt-4o')).toBeUndefined();
    await feed.close();
  });

  it('keeps the previous rules when a reload fails', async () => {
    const errors: unknown[] = [];
    let fail = false;
    const cache = new FallbackRules(
      { list: async () => (fail ? Promise.reject(new Error('db down')) : [{ ...rule({}), fallbacks: ['gpt-4o'], triggers: ['rate_limited' as const], createdAt: '', updatedAt: '' }]) },
      new LocalChangeFeed(),
      (error) => errors.push(error),
    );
    await cache.load();
    fail = true;
    await cache.load();
    expect(cache.ruleFor('claude-x')?.id).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
