import { MODELS_TRIED_HEADER, SERVED_MODEL_HEADER } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

/**
 * Peers' open trackers on fallback across models, where the fallback models are never tried:
 * new-api #6084 ("cross-model fallback with priority groups": a model whose every channel failed
 * ends the request although another model could answer) and one-api #313 ("gpt-4 with no
 * channel available should degrade to gpt-3.5"; the suggested workaround, a low-weight channel,
 * sends some traffic there even when gpt-4 is healthy). Pinned here so chat-relay never has them.
 */
describe('e2e: fallback models are tried (new-api #6084, one-api #313)', () => {
  let e2e: E2eRelay;
  const sims: UpstreamSim[] = [];
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const calls = (sim: UpstreamSim | undefined) => sim?.requests.filter((request) => request.method === 'POST').length ?? 0;
  const chat = (model: string) => e2e.postChat({ model, messages: [{ role: 'user', content: 'Hello there' }] });

  beforeAll(async () => {
    e2e = await startE2eRelay();
    for (let index = 0; index < 4; index += 1) sims.push(await e2e.startSim());
  });
  afterAll(() => e2e.close());

  it('new-api #6084: every channel of the first model and of the second fail (429s, 5xx) — the third model of the chain answers', async () => {
    const [first1, first2, second, third] = sims;
    // Two channels of `first` (the retry within the model tries both), one of `second`, one of `third`.
    await e2e.addChannel(first1!.baseUrl, { models: ['first'], model_mapping: { first: 'gpt-4o' } });
    await e2e.addChannel(first2!.baseUrl, { models: ['first'], model_mapping: { first: 'gpt-4o' } });
    await e2e.addChannel(second!.baseUrl, { models: ['second'], model_mapping: { second: 'gpt-4o-mini' } });
    await e2e.addChannel(third!.baseUrl, { models: ['third'], model_mapping: { third: 'gpt-4.1' } });
    expect((await admin('POST', '/api/fallbacks', { model: 'first', fallbacks: ['second', 'third'] })).status).toBe(201);
    first1!.failNext({ kind: 'status', status: 429 }, 3);
    first2!.failNext({ kind: 'status', status: 429 }, 3);
    second!.failNext({ kind: 'status', status: 500 }, 3);
    const response = await chat('first');
    expect(response.status).toBe(200);
    expect(response.headers.get(MODELS_TRIED_HEADER)).toBe('first,second,third');
    expect(((await response.json()) as { model: string }).model).toBe('third');
    // Each channel of each model tried once, in chain order: the channel retry within a model stays as it is.
    expect([calls(first1), calls(first2), calls(second), calls(third)]).toEqual([1, 1, 1, 1]);
  });

  it('one-api #313: gpt-4 with no channel available degrades to its fallback; while it has one, the fallback gets nothing', async () => {
    const [gpt4, gpt35] = [await e2e.startSim(), await e2e.startSim()];
    const channel = await e2e.addChannel(gpt4.baseUrl, { models: ['house-gpt-4'], model_mapping: { 'house-gpt-4': 'gpt-4o' } });
    await e2e.addChannel(gpt35.baseUrl, { models: ['house-gpt-3.5'], model_mapping: { 'house-gpt-3.5': 'gpt-4o-mini' } });
    expect((await admin('POST', '/api/fallbacks', { model: 'house-gpt-4', fallbacks: ['house-gpt-3.5'], triggers: ['no_channel'] })).status).toBe(201);
    for (let round = 0; round < 5; round += 1) expect((await chat('house-gpt-4')).headers.get(SERVED_MODEL_HEADER)).toBe('house-gpt-4');
    expect([calls(gpt4), calls(gpt35)]).toEqual([5, 0]);

    // Its only channel disabled: no channel serves gpt-4 any more.
    expect((await admin('PATCH', `/api/channels/${channel.id}`, { enabled: false })).status).toBe(200);
    const degraded = await chat('house-gpt-4');
    expect(degraded.status).toBe(200);
    expect(degraded.headers.get(SERVED_MODEL_HEADER)).toBe('house-gpt-3.5');
    expect([calls(gpt4), calls(gpt35)]).toEqual([5, 1]);
  });
});
