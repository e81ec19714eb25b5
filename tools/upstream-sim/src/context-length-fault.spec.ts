import { startUpstreamSim } from './sim-server';
import { postChat, postResponses, testKey } from './sim-test-client';
import type { UpstreamSim } from './sim-types';

/**
 * The `context-length` fault: each provider's own 400 for a prompt longer than the model's
 * window, as its callers report it (sources in context-length-fault.ts) — what the relay's
 * fallback across models (issue 32) recognises without a shared code.
 */
describe('context-length fault', () => {
  let sim: UpstreamSim;
  beforeAll(async () => {
    sim = await startUpstreamSim({ acceptedKeys: [testKey] });
  });
  afterAll(() => sim.close());
  const marked = '[sim:fault=context-length] a very long prompt';

  it('OpenAI Chat Completions: 400 context_length_exceeded on messages', async () => {
    const response = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: marked }] });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' });
    expect(error['message']).toMatch(/^This model's maximum context length is \d+ tokens\. However, your messages resulted in \d+ tokens\./);
  });

  it('OpenAI Responses: 400 context_length_exceeded on input', async () => {
    const response = await postResponses(sim, { model: 'gpt-4o', input: marked });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({ code: 'context_length_exceeded', param: 'input' });
  });

  it('Anthropic: 400 invalid_request_error "prompt is too long: N tokens > M maximum", no code', async () => {
    const response = await fetch(`${sim.anthropicBaseUrl}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': testKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-opus-4-5-20251101', max_tokens: 10, messages: [{ role: 'user', content: marked }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^prompt is too long: \d+ tokens > \d+ maximum$/);
  });

  it('Gemini: 400 INVALID_ARGUMENT "The input token count (N) exceeds the maximum number of tokens allowed (M)."', async () => {
    const response = await fetch(`${sim.geminiBaseUrl}/models/gemini-2.5-pro:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': testKey, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: marked }] }] }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(error.message).toMatch(/^The input token count \(\d+\) exceeds the maximum number of tokens allowed \(\d+\)\.$/);
  });
});
