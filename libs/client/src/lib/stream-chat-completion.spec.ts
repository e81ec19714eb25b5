import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import axios from 'axios';
import {
  contentChunk,
  readOpenAiFixture,
  sendEndlessSse,
  sendJson,
  sendSseSlices,
  sseData,
  startRelayTestServer,
  type RelayTestServer,
} from '../testing/relay-test-server';
import { createRelayClient, type RelayClient } from './create-relay-client';
import { RelayApiError } from './relay-api-error';

const request: ChatCompletionRequest = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Weather in Edinburgh and the AAPL price?' }],
  stream_options: { include_usage: true },
};

let server: RelayTestServer;
let client: RelayClient;

beforeAll(async () => {
  server = await startRelayTestServer();
  client = createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test-key' });
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

async function collect(chunks: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const result: ChatCompletionChunk[] = [];
  for await (const chunk of chunks) result.push(chunk);
  return result;
}

/** Runs the iteration to its end and returns what it threw, with the chunks that came before. */
async function collectUntilError(chunks: AsyncIterable<ChatCompletionChunk>) {
  const received: ChatCompletionChunk[] = [];
  try {
    for await (const chunk of chunks) received.push(chunk);
  } catch (error) {
    return { received, error };
  }
  throw new Error(`the iteration ended without an error after ${received.length} chunks`);
}

const contentOf = (chunks: ChatCompletionChunk[], index = 0) =>
  chunks
    .flatMap((chunk) => chunk.choices)
    .filter((choice) => choice.index === index)
    .map((choice) => choice.delta.content ?? '')
    .join('');

describe('streamChatCompletion over recorded OpenAI streams, sent 7 bytes at a time', () => {
  it('reassembles two parallel tool calls by index into parseable arguments', async () => {
    server.handle((_req, res) => sendSseSlices(res, readOpenAiFixture('chat-stream-parallel-tool-calls.sse')));

    const chunks = await collect(client.streamChatCompletion(request));

    const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
    for (const delta of chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []))) {
      const call = calls.get(delta.index) ?? { arguments: '' };
      call.id ??= delta.id;
      call.name ??= delta.function?.name;
      call.arguments += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
    expect([...calls.keys()]).toEqual([0, 1]);
    expect(calls.get(0)).toMatchObject({ id: 'call_JMW1whyEaYG438VE1OIflxA2', name: 'GetWeatherArgs' });
    expect(JSON.parse(calls.get(0)!.arguments)).toEqual({ city: 'Edinburgh', country: 'GB', units: 'c' });
    expect(calls.get(1)).toMatchObject({ id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou', name: 'get_stock_price' });
    expect(JSON.parse(calls.get(1)!.arguments)).toEqual({ ticker: 'AAPL', exchange: 'NASDAQ' });
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).at(-1)).toBe('tool_calls');
    // 26 `data:` events in the file, the last one being [DONE].
    expect(chunks).toHaveLength(25);
  });

  it('sends stream: true, the JSON body and the bearer key to POST /v1/chat/completions', async () => {
    server.handle((_req, res) => sendSseSlices(res, readOpenAiFixture('chat-stream-text.sse'), { sliceBytes: 4096 }));

    await collect(client.streamChatCompletion(request));

    const [seen] = server.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(seen!.headers.authorization).toBe('Bearer sk-test-key');
    expect(seen!.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(seen!.body)).toEqual({ ...request, stream: true });
  });

  it('concatenates text deltas and yields the final usage chunk with empty choices', async () => {
    server.handle((_req, res) => sendSseSlices(res, readOpenAiFixture('chat-stream-text.sse')));

    const chunks = await collect(client.streamChatCompletion(request));

    expect(contentOf(chunks)).toBe(
      "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, " +
        'I recommend checking a reliable weather website or a weather app.',
    );
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 30, total_tokens: 44 });
  });

  it('keeps the three choices of n=3 apart', async () => {
    server.handle((_req, res) => sendSseSlices(res, readOpenAiFixture('chat-stream-n3-choices.sse')));

    const chunks = await collect(client.streamChatCompletion({ ...request, n: 3 }));

    const temperatures = [0, 1, 2].map((index) => JSON.parse(contentOf(chunks, index)) as { temperature: number });
    expect(temperatures).toEqual([
      { city: 'San Francisco', temperature: 65, units: 'f' },
      { city: 'San Francisco', temperature: 61, units: 'f' },
      { city: 'San Francisco', temperature: 59, units: 'f' },
    ]);
    const finishes = chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.finish_reason));
    expect(finishes.map((choice) => [choice.index, choice.finish_reason])).toEqual([
      [0, 'stop'],
      [1, 'stop'],
      [2, 'stop'],
    ]);
  });

  it('decodes UTF-8 characters split between packets and skips SSE comments', async () => {
    const text = 'Grüße aus Köln 🌍 — ok';
    const sse = `: keep-alive\n\n${sseData(contentChunk(text.slice(0, 9)))}${sseData(contentChunk(text.slice(9)))}data: [DONE]\n\n`;
    server.handle((_req, res) => sendSseSlices(res, Buffer.from(sse, 'utf8'), { sliceBytes: 1 }));

    const chunks = await collect(client.streamChatCompletion(request));

    expect(contentOf(chunks)).toBe(text);
  });
});

describe('streamChatCompletion failures', () => {
  it('throws the OpenAI error of a 401 answer, with the request id', async () => {
    server.handle((_req, res) =>
      sendJson(
        res,
        401,
        { error: { message: 'Incorrect API key provided', type: 'authentication_error', param: null, code: 'invalid_api_key' } },
        { 'x-request-id': 'req_401' },
      ),
    );

    const { received, error } = await collectUntilError(client.streamChatCompletion(request));

    expect(received).toEqual([]);
    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({
      status: 401,
      type: 'authentication_error',
      code: 'invalid_api_key',
      param: null,
      message: 'Incorrect API key provided',
      requestId: 'req_401',
      isRetryable: false,
    });
  });

  it('throws an in-stream error event after the chunks before it, with status 500 when it names none', async () => {
    const error = { message: 'Upstream went away', type: 'upstream_error', param: null, code: 'upstream_disconnected' };
    server.handle((_req, res) =>
      sendSseSlices(res, Buffer.from(sseData(contentChunk('Hello')) + sseData({ error })), {
        headers: { 'x-request-id': 'req_stream' },
      }),
    );

    const outcome = await collectUntilError(client.streamChatCompletion(request));

    expect(contentOf(outcome.received)).toBe('Hello');
    expect(outcome.error).toBeInstanceOf(RelayApiError);
    expect(outcome.error).toMatchObject({ status: 500, ...error, requestId: 'req_stream', isRetryable: true });
  });

  it('uses the status an in-stream error event carries', async () => {
    const error = { message: 'Slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded', status: 429 };
    server.handle((_req, res) => sendSseSlices(res, Buffer.from(sseData({ error }))));

    const outcome = await collectUntilError(client.streamChatCompletion(request));

    expect(outcome.error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'rate_limit_error' });
  });

  it('reports a stream cut before [DONE] as stream_truncated, after the complete events', async () => {
    const fixture = readOpenAiFixture('chat-stream-text.sse');
    // Cut 40 bytes into the event after " to": four complete events arrive, the fifth is half a line.
    const cut = fixture.indexOf('data:', fixture.indexOf('" to"')) + 40;
    server.handle((_req, res) => sendSseSlices(res, fixture.subarray(0, cut)));

    const { received, error } = await collectUntilError(client.streamChatCompletion(request));

    expect(received).toHaveLength(4);
    expect(contentOf(received)).toBe("I'm unable to");
    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({ code: 'stream_truncated', status: 502 });
  });

  it('rejects a chunk that does not match the chunk schema as invalid_chunk', async () => {
    const broken = { ...contentChunk('x'), object: 'chat.completion' };
    server.handle((_req, res) => sendSseSlices(res, Buffer.from(sseData(broken) + 'data: [DONE]\n\n')));

    const { error } = await collectUntilError(client.streamChatCompletion(request));

    expect(error).toMatchObject({ code: 'invalid_chunk', message: expect.stringContaining('object') });
  });
});

describe('streamChatCompletion cancellation', () => {
  it('abort() mid-stream rejects with an AbortError and closes the request socket', async () => {
    server.handle((_req, res) => sendEndlessSse(res));
    const controller = new AbortController();

    const received: ChatCompletionChunk[] = [];
    const iteration = (async () => {
      for await (const chunk of client.streamChatCompletion(request, { signal: controller.signal })) {
        received.push(chunk);
        if (received.length === 2) controller.abort();
      }
    })();

    await expect(iteration).rejects.toMatchObject({ name: 'AbortError' });
    expect(received).toHaveLength(2);
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });

  it('abort() while the consumer is between chunks still rejects the next step', async () => {
    server.handle((_req, res) => sendEndlessSse(res));
    const controller = new AbortController();
    const iterator = client.streamChatCompletion(request, { signal: controller.signal })[Symbol.asyncIterator]();

    await expect(iterator.next()).resolves.toMatchObject({ done: false });
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 30));

    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });

  it('an already aborted signal rejects without sending a request', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(collect(client.streamChatCompletion(request, { signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('break out of for await closes the request socket', async () => {
    server.handle((_req, res) => sendEndlessSse(res));

    let received = 0;
    for await (const _chunk of client.streamChatCompletion(request)) {
      received += 1;
      if (received === 3) break;
    }

    expect(received).toBe(3);
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });
});

// Browsers have no Node streams: axios' fetch adapter answers `responseType: 'stream'` with a
// web ReadableStream, which the console (apps/console) reads through this same function.
describe('streamChatCompletion with axios fetch adapter (web streams, as in a browser)', () => {
  const fetchClient = () =>
    createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test-key', axiosInstance: axios.create({ adapter: 'fetch' }) });

  it('reassembles the recorded stream from a web ReadableStream', async () => {
    server.handle((_req, res) => sendSseSlices(res, readOpenAiFixture('chat-stream-parallel-tool-calls.sse')));

    const chunks = await collect(fetchClient().streamChatCompletion(request));

    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls.filter((call) => call.function?.name).map((call) => call.function?.name)).toEqual(['GetWeatherArgs', 'get_stock_price']);
  });

  it('throws the 401 error body read from a web stream, with the request id', async () => {
    server.handle((_req, res) =>
      sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'authentication_error', param: null, code: 'invalid_api_key' } }, { 'x-request-id': 'req_web' }),
    );

    const { error } = await collectUntilError(fetchClient().streamChatCompletion(request));

    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', requestId: 'req_web' });
  });

  it('break out of for await cancels the web stream and closes the request socket', async () => {
    server.handle((_req, res) => sendEndlessSse(res));

    let received = 0;
    for await (const _chunk of fetchClient().streamChatCompletion(request)) {
      received += 1;
      if (received === 3) break;
    }

    expect(received).toBe(3);
    await expect(server.requests[0]!.socketClosed).resolves.toEqual({ responseEnded: false });
  });
});
