import type { Channel } from '@chat-relay/contract';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { startRecordingUpstream, type RawCall, type RecordingUpstream } from './recording-upstream';

/**
 * An upstream that refuses a parameter by name (issue 28), for a model the catalogue does not
 * know (so nothing is left out up front): OpenAI's own 400 text, from a stand-in.
 */
const MODEL = 'local-coder';

const refusal = (name: string) =>
  JSON.stringify({ error: { message: `Unrecognized request argument supplied: ${name}`, type: 'invalid_request_error', param: null, code: null } });

const completion = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

const bodyOf = (call: RawCall | undefined): Record<string, unknown> => JSON.parse(call?.body.toString('utf8') ?? '{}') as Record<string, unknown>;

/** Refuses each parameter of `refused` present in the request, in order; answers otherwise. */
const refusing = (...refused: string[]) => (call: RawCall) => {
  const body = bodyOf(call);
  const name = refused.find((field) => field in body);
  return name ? { status: 400, contentType: 'application/json' as const, body: refusal(name) } : { contentType: 'application/json' as const, body: completion };
};

/** A Gemini caller's request (topK, temperature): bridged to the OpenAI-compatible channel. */
const postGemini = (e2e: E2eRelay): Promise<Response> =>
  fetch(`${e2e.url}/v1beta/models/${MODEL}:generateContent`, {
    method: 'POST',
    headers: { 'x-goog-api-key': e2e.token, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { temperature: 0.5, topK: 40 } }),
  });

async function channelHealth(e2e: E2eRelay, id: number): Promise<Channel['health']> {
  const response = await fetch(`${e2e.url}/api/channels/${id}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as Channel).health;
}

describe('e2e: an upstream that refuses an adapted parameter by name (issue 28)', () => {
  let e2e: E2eRelay;
  let upstream: RecordingUpstream;

  afterEach(async () => {
    await e2e.close();
    await upstream.close();
  });

  async function start(answer: Parameters<typeof startRecordingUpstream>[0]): Promise<Channel> {
    e2e = await startE2eRelay();
    upstream = await startRecordingUpstream(answer);
    return e2e.addChannel(upstream.baseUrl, { type: 'openai', models: [MODEL] });
  }

  it('is retried once on the same channel without it, remembered for the channel and model, shown on its health, and forgotten when the channel changes', async () => {
    const channel = await start(refusing('top_k'));

    const first = await postGemini(e2e);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-relay-adjusted')).toBe('top_k dropped');
    expect(upstream.calls.map((call) => 'top_k' in bodyOf(call))).toEqual([true, false]);
    expect(bodyOf(upstream.calls[1])).toMatchObject({ model: MODEL, temperature: 0.5 });

    // The next request leaves it out up front: one call.
    const second = await postGemini(e2e);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-relay-adjusted')).toBe('top_k dropped');
    expect(upstream.calls).toHaveLength(3);
    expect(bodyOf(upstream.calls[2])).not.toHaveProperty('top_k');

    const health = await channelHealth(e2e, channel.id);
    expect(health.refused_parameters).toEqual([{ model: MODEL, field: 'top_k', at_most: null, since: expect.any(String) }]);
    // Each request one attempt on the channel (the retry is inside it), each a success.
    expect(health).toMatchObject({ state: 'closed', attempts: 2, failures: 0 });

    const patched = await fetch(`${e2e.url}/api/channels/${channel.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ priority: 1 }),
    });
    expect(patched.status).toBe(200);
    expect((await channelHealth(e2e, channel.id)).refused_parameters).toEqual([]);
  });

  it('a Chat Completions caller’s own top_k on an OpenAI-compatible channel is its explicit choice: the upstream’s 400 reaches it, no retry', async () => {
    await start(refusing('top_k'));
    const response = await e2e.postChat({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }], top_k: 40 });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('Unrecognized request argument supplied: top_k');
    expect(response.headers.get('x-relay-adjusted')).toBeNull();
    expect(upstream.calls).toHaveLength(1);
  });

  it('never a loop: a second refusal after the one retry reaches the caller', async () => {
    await start(refusing('top_k', 'temperature'));
    const response = await postGemini(e2e);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Unrecognized request argument supplied: temperature');
    expect(upstream.calls).toHaveLength(2);
  });
});
