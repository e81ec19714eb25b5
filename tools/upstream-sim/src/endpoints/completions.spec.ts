import { CompletionSchema, ErrorResponseSchema, type Completion } from '@chat-relay/contract';
import { decideAnswer } from '../decide-answer';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, readAll, sseData, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const instruct = 'gpt-3.5-turbo-instruct';

async function complete(body: Record<string, unknown>): Promise<Completion> {
  const response = await callOpenAi(sim, 'POST', '/completions', { body: { model: instruct, ...body } });
  expect(response.status).toBe(200);
  const json: unknown = await response.json();
  expectSpecValid('CreateCompletionResponse', json);
  return CompletionSchema.parse(json);
}

/** The chunks of a streamed completion, `[DONE]` checked and taken off. */
async function streamChunks(body: Record<string, unknown>): Promise<Completion[]> {
  const response = await callOpenAi(sim, 'POST', '/completions', { body: { model: instruct, stream: true, ...body } });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  const data = sseData(text);
  expect(data.at(-1)).toBe('[DONE]');
  return data.slice(0, -1).map((payload) => CompletionSchema.parse(JSON.parse(payload)));
}

describe('POST /v1/completions', () => {
  it('answers the brain’s text for the prompt, as on chat, with usage, the same every time', async () => {
    const first = await complete({ prompt: 'Say hello', max_tokens: 50 });
    const again = await complete({ prompt: 'Say hello', max_tokens: 50 });
    const chat = decideAnswer({ model: instruct, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(chat.kind === 'text' && chat.content).toBe('You said: Say hello');
    expect(first).toMatchObject({ object: 'text_completion', model: instruct, system_fingerprint: 'fp_sim' });
    expect(first.id).toMatch(/^cmpl-sim[0-9a-f]{24}$/);
    expect(first.choices).toEqual([{ text: 'You said: Say hello', index: 0, logprobs: null, finish_reason: 'stop' }]);
    expect(first.usage).toEqual({ prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 });
    expect([again.id, again.choices]).toEqual([first.id, first.choices]);
  });

  it('stops at 16 tokens by default, as OpenAI does, and at max_tokens when set (finish_reason length)', async () => {
    const words = Array.from({ length: 30 }, (_, index) => `w${index}`).join(' ');
    const byDefault = await complete({ prompt: words });
    expect(byDefault.choices[0]).toMatchObject({ finish_reason: 'length' });
    expect(byDefault.choices[0]?.text.split(' ')).toHaveLength(16);
    expect(byDefault.usage?.completion_tokens).toBe(16);
    const short = await complete({ prompt: 'alpha beta gamma', max_tokens: 3 });
    expect(short.choices[0]).toMatchObject({ text: 'You said: alpha', finish_reason: 'length' });
    expect(short.usage?.completion_tokens).toBe(3);
  });

  it('answers every prompt n times, indexed prompt by prompt, and sums the usage', async () => {
    const completion = await complete({ prompt: ['one', 'two three'], n: 2, max_tokens: 20 });
    expect(completion.choices.map((choice) => [choice.index, choice.text])).toEqual([
      [0, 'You said: one'],
      [1, 'You said: one'],
      [2, 'You said: two three'],
      [3, 'You said: two three'],
    ]);
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2 * 3 + 2 * 4, total_tokens: 17 });
  });

  it('honours stop, echo, logprobs and token-id prompts', async () => {
    const stopped = await complete({ prompt: 'red, green, blue', stop: [',', 'zzz'], max_tokens: 20 });
    expect(stopped.choices[0]).toMatchObject({ text: 'You said: red', finish_reason: 'stop' });
    const echoed = await complete({ prompt: 'Hi. ', echo: true, max_tokens: 20 });
    expect(echoed.choices[0]?.text).toBe('Hi. You said: Hi.');
    const withLogprobs = await complete({ prompt: 'Hi', logprobs: 1, max_tokens: 20 });
    expect(withLogprobs.choices[0]?.logprobs).toEqual({
      tokens: ['You', ' said:', ' Hi'],
      token_logprobs: [-0.5, -0.5, -0.5],
      top_logprobs: [{ You: -0.5 }, { ' said:': -0.5 }, { ' Hi': -0.5 }],
      text_offset: [0, 3, 9],
    });
    const tokenIds = await complete({ prompt: [15, 27, 99], max_tokens: 20 });
    expect(tokenIds.choices[0]?.text).toBe('You said: 15 27 99');
    expect(tokenIds.usage?.prompt_tokens).toBe(3);
  });

  it('streams text_completion chunks, one per word token, then the finish chunk and [DONE]', async () => {
    const chunks = await streamChunks({ prompt: 'Hello world', max_tokens: 20 });
    for (const chunk of chunks) {
      // The API sends finish_reason null until the end, where the OpenAPI description wants a value.
      expectSpecValid('CreateCompletionResponse', { ...chunk, choices: chunk.choices.map((choice) => ({ ...choice, finish_reason: choice.finish_reason ?? 'stop' })) });
    }
    expect(chunks.slice(0, -1).map((chunk) => chunk.choices[0]?.text)).toEqual(['You', ' said:', ' Hello', ' world']);
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
    expect(chunks.at(-1)?.choices).toEqual([{ text: '', index: 0, logprobs: null, finish_reason: 'stop' }]);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('sends a last usage chunk with no choices when include_usage is set (usage null before)', async () => {
    const chunks = await streamChunks({ prompt: 'count me', max_tokens: 2, stream_options: { include_usage: true } });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('length');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('answers 400 naming the field for a missing prompt or a bad value', async () => {
    const missing = await callOpenAi(sim, 'POST', '/completions', { body: { model: instruct } });
    expect(missing.status).toBe(400);
    expect(ErrorResponseSchema.parse(await missing.json()).error).toMatchObject({ message: "Missing required parameter: 'prompt'.", param: 'prompt' });
    const tooHot = await callOpenAi(sim, 'POST', '/completions', { body: { model: instruct, prompt: 'x', temperature: 3 } });
    expect(ErrorResponseSchema.parse(await tooHot.json()).error).toMatchObject({ code: 'decimal_above_max_value', param: 'temperature' });
  });
});
