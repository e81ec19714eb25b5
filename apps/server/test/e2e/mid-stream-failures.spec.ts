import type { SimFault } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { readRawStream } from './sse-events';

const streamed = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Tell me a long story' }], stream: true };

describe('e2e: an upstream failing after the stream started', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ timeouts: { idle_ms: 300 } });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  /** Plays `fault` upstream and reads the relay's raw stream: good chunks, then one error event, then the end. */
  async function rawStreamWith(fault: SimFault) {
    e2e.sim.failNext(fault);
    const raw = await readRawStream(await e2e.postChat(streamed));
    expect(raw.status).toBe(200);
    expect(raw.data).not.toContain('[DONE]');
    const errorEvents = raw.events.filter((event) => 'error' in event);
    expect(errorEvents).toHaveLength(1);
    const last = raw.events[raw.events.length - 1]!;
    expect(last).toBe(errorEvents[0]);
    expect(raw.text.endsWith(`data: ${JSON.stringify(last)}\n\n`)).toBe(true);
    expectSpecValid('ErrorResponse', last);
    const chunks = raw.events.slice(0, -1);
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expectSpecValid('CreateChatCompletionStreamResponse', chunk);
    return { error: (last as { error: Record<string, unknown> }).error, chunks };
  }

  it('stream-error: the SDK iteration throws an APIError after the first chunks', async () => {
    e2e.sim.failNext({ kind: 'stream-error' });
    const stream = await client.chat.completions.create({ ...streamed, stream: true });
    const contents: string[] = [];
    let thrown: unknown;
    try {
      for await (const chunk of stream) contents.push(chunk.choices[0]?.delta.content ?? '');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OpenAI.APIError);
    expect((thrown as InstanceType<typeof OpenAI.APIError>).message).toContain('error while processing');
    expect(contents.length).toBeGreaterThan(0);

    const { error } = await rawStreamWith({ kind: 'stream-error' });
    expect(error['message']).toBe('The server had an error while processing your request.');

    const rows = await e2e.usageRows(2);
    for (const row of rows) {
      expect(row.errorCode).not.toBeNull();
      // No usage chunk came: what was delivered is counted and marked as an estimate (SPEC §8).
      expect(row).toMatchObject({ stream: true, usageEstimated: true });
      expect(row.completionTokens).toBeGreaterThan(0);
    }
  });

  it('cut: the stream ends with one error event, stream_truncated or upstream_connection_error', async () => {
    const { error } = await rawStreamWith({ kind: 'cut' });
    expect(error['code']).toMatch(/^(stream_truncated|upstream_connection_error)$/);
    expect(error['type']).toBe('upstream_error');
  });

  it('malformed: the stream ends with one error event, bad_response', async () => {
    const { error } = await rawStreamWith({ kind: 'malformed' });
    expect(error).toMatchObject({ code: 'bad_response', type: 'upstream_error' });
  });

  it('a stall longer than the channel’s idle timeout: one upstream_timeout error event, long before the stall ends', async () => {
    const started = Date.now();
    const raw = await readRawStream(await e2e.postChat({ ...streamed, x_sim: { latency_ms_per_token: 5000 } }));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(raw.data).not.toContain('[DONE]');
    const last = raw.events[raw.events.length - 1];
    expectSpecValid('ErrorResponse', last);
    expect(last).toMatchObject({ error: { code: 'upstream_timeout', type: 'upstream_error' } });
    expect(raw.events.filter((event) => 'error' in event)).toHaveLength(1);
  });

  it.each([
    ['cut', 'upstream_connection_error'],
    ['malformed', 'bad_response'],
  ] as const)('non-streamed %s: a 502 %s before anything was sent', async (kind, code) => {
    e2e.sim.failNext({ kind });
    const response = await e2e.postChat({ ...streamed, stream: false });
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(response.status).toBe(502);
    expectSpecValid('ErrorResponse', body);
    expect(body.error).toMatchObject({ code, type: 'upstream_error' });
  });
});
