import { checkAnswer } from './check-answer';
import { anthropicRouteOf } from './check-anthropic-answer';
import type { RawOutcome, RawRequest } from './raw-http';

const body = { model: 'claude-sonnet-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] };
const post = (target = '/v1/messages', sent: unknown = body): RawRequest => ({
  method: 'POST',
  target,
  headers: [['x-api-key', 'sk-x'], ['Content-Type', 'application/json']],
  body: Buffer.from(JSON.stringify(sent)),
});

const answer = (status: number, text: string, headers: Record<string, string> = {}): RawOutcome => ({
  kind: 'response',
  response: { status, headers: { 'x-request-id': 'req_1', 'request-id': 'req_1', ...headers }, body: Buffer.from(text), aborted: false },
});
const errorBody = (type: string) => JSON.stringify({ type: 'error', error: { type, message: 'Something.' }, request_id: 'req_1' });

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const messageStart = frame('message_start', {
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } },
});
const textBlock = [
  frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
  frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
].join('');
const toolBlock = (fragments: string[], id = 'toolu_1') =>
  [
    frame('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id, name: 'get_weather', input: {} } }),
    ...fragments.map((partial) => frame('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: partial } })),
    frame('content_block_stop', { type: 'content_block_stop', index: 1 }),
  ].join('');
const ending = [
  frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
  frame('message_stop', { type: 'message_stop' }),
].join('');
const stream = (text: string) => answer(200, text, { 'content-type': 'text/event-stream; charset=utf-8' });

describe('anthropicRouteOf: the answers held to Anthropic shapes', () => {
  it.each([
    ['POST', '/v1/messages?beta=true', [], 'messages'],
    ['POST', '/V1/Messages/', [], 'messages'],
    ['GET', '/v1/messages', [], 'messages'],
    ['POST', '/v1/messages/count_tokens', [], 'count_tokens'],
    ['GET', '/v1/messages/batches/msgbatch_1', [], 'other'],
    ['GET', '/v1/models?limit=2', [['anthropic-version', '2023-06-01']], 'models'],
    ['GET', '/v1/models/claude-sonnet-4-5', [['Anthropic-Version', '']], 'models'],
    ['GET', '/v1/models/a/b', [['anthropic-version', '2023-06-01']], 'models'],
    ['GET', '/v1/models', [], undefined],
    ['GET', '/v1/messagesx', [], undefined],
    ['POST', '/v1/chat/completions', [['anthropic-version', '2023-06-01']], undefined],
    ['POST', '/v1//messages', [], undefined],
  ] as const)('%s %s %j → %s', (method, target, headers, route) => {
    expect(anthropicRouteOf({ method, target, headers })).toBe(route);
  });
});

describe('checkAnswer on an Anthropic route', () => {
  it('takes an Anthropic error whose status fits its type, with its request-id', () => {
    expect(checkAnswer(post(), answer(400, errorBody('invalid_request_error'))).problem).toBeUndefined();
    expect(checkAnswer(post(), answer(413, errorBody('request_too_large'))).problem).toBeUndefined();
    expect(checkAnswer(post(), answer(422, errorBody('invalid_request_error'))).problem).toBeUndefined();
  });

  it.each([
    [400, JSON.stringify({ error: { message: 'x', type: 'invalid_request_error', param: null, code: null } }), {}, 'anthropic 400 body: type is not "error"'],
    [401, errorBody('invalid_request_error'), {}, 'anthropic 401 paired with invalid_request_error'],
    [404, errorBody('authentication_error'), {}, 'anthropic 404 paired with authentication_error'],
    [400, errorBody('bad_request'), {}, 'anthropic 400 body: error.type "bad_request" is not Anthropic\'s'],
    [400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: '' } }), {}, 'anthropic 400 body: error.message not a non-empty string'],
    [400, errorBody('invalid_request_error'), { 'request-id': 'req_2' }, 'anthropic 400: request_id differs from its header'],
    [400, 'Bad Request', {}, 'anthropic 400 body not JSON (no content-type)'],
  ])('%s %s %j → %s', (status, text, headers, problem) => {
    expect(checkAnswer(post(), answer(status, text, headers)).problem).toBe(problem);
  });

  it('wants a request-id header on errors Express wrote, and takes the HTTP layer’s OpenAI-shaped refusals', () => {
    const missing: RawOutcome = { kind: 'response', response: { status: 400, headers: { 'x-request-id': 'req_1' }, body: Buffer.from(errorBody('invalid_request_error')), aborted: false } };
    expect(checkAnswer(post(), missing).problem).toBe('anthropic 400 without a request-id header');
    const parserRefusal = JSON.stringify({ error: { message: 'The request is not valid HTTP/1.1.', type: 'invalid_request_error', param: null, code: 'invalid_http' } });
    expect(checkAnswer(post(), { kind: 'response', response: { status: 400, headers: {}, body: Buffer.from(parserRefusal), aborted: false } }).problem).toBeUndefined();
  });

  it('takes a 5xx only when the case asked the upstream to fail, and then only as a server error type', () => {
    expect(checkAnswer(post(), answer(502, errorBody('api_error'))).problem).toBe('anthropic 502 api_error');
    expect(checkAnswer(post(), answer(502, errorBody('api_error')), true).problem).toBeUndefined();
    expect(checkAnswer(post(), answer(529, errorBody('overloaded_error')), true).problem).toBeUndefined();
    expect(checkAnswer(post(), answer(502, errorBody('invalid_request_error')), true).problem).toBe('anthropic 502 paired with invalid_request_error');
  });

  it('takes a whole stream: one message_start first, blocks in order, a tool input that parses, message_stop last', () => {
    expect(checkAnswer(post(), stream(messageStart + frame('ping', { type: 'ping' }) + textBlock + toolBlock(['{"city":', '"Paris"}']) + ending))).toEqual({ statusKey: '200-sse' });
  });

  it.each([
    ['a [DONE]', messageStart + textBlock + ending + 'data: [DONE]\n\n', 'SSE [DONE] in an Anthropic stream'],
    ['data that is not JSON', messageStart + frame('content_block_delta', '{not json') + ending, 'content_block_delta SSE data not JSON'],
    ['a name its data does not repeat', messageStart + frame('ping', { type: 'pong' }) + ending, 'SSE event ping carries type "pong"'],
    ['a second message_start', messageStart + messageStart + ending, 'message_start not first'],
    ['no message_start first', textBlock + ending, 'stream starts with content_block_start'],
    ['a block started inside another', messageStart + textBlock.replace(/event: content_block_stop[^]*$/, '') + toolBlock(['{}']) + ending, 'SSE block 1 started inside block 0'],
    ['a tool input that does not parse', messageStart + textBlock + toolBlock(['{"city":']) + ending, 'SSE tool input of block 1 is not a JSON object'],
    ['a tool_use id Anthropic refuses', messageStart + textBlock + toolBlock(['{}'], 'call.1/x') + ending, 'SSE tool_use id "call.1/x" is not Anthropic\'s pattern'],
    ['an invalid event', messageStart + frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'done' }, usage: { output_tokens: 1 } }) + frame('message_stop', { type: 'message_stop' }), 'message_delta event invalid at delta.stop_reason'],
    ['no end', messageStart + textBlock, 'stream ends with content_block_stop, neither message_stop nor error'],
    ['an event after message_stop', messageStart + textBlock + ending + frame('ping', { type: 'ping' }), 'SSE event 6 (ping) after message_stop'],
    ['a shapeless error event', messageStart + frame('error', { type: 'error', error: { message: 'x' } }), 'SSE error event: error.type undefined is not Anthropic\'s'],
  ])('refuses a stream with %s', (_name, text, problem) => {
    expect(checkAnswer(post(), stream(text)).problem).toBe(problem);
  });

  it('takes an error event as a stream’s end only when the case asked the upstream to fail', () => {
    const failed = messageStart + textBlock + frame('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(checkAnswer(post(), stream(failed)).problem).toBe('SSE error event overloaded_error with no upstream fault asked');
    expect(checkAnswer(post(), stream(failed), true)).toEqual({ statusKey: '200-sse-error' });
  });

  it('wants the answer named as the caller named the model, and streamed only when asked', () => {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'gpt-4o', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } };
    const json = (sent: unknown) => checkAnswer(post('/v1/messages', sent), answer(200, JSON.stringify(message), { 'content-type': 'application/json' })).problem;
    expect(json({ ...body, stream: false, model: 'gpt-4o' })).toBeUndefined();
    expect(json({ ...body, stream: false })).toBe('answered as model "gpt-4o", asked "claude-sonnet-4-5"');
    expect(json(body)).toBe('a JSON answer to a streamed request');
    expect(checkAnswer(post('/v1/messages', { ...body, stream: false }), stream(messageStart + textBlock + ending)).problem).toBe('streamed an answer not asked to stream');
  });

  it('wants each route’s success shape', () => {
    expect(checkAnswer(post('/v1/messages/count_tokens'), answer(200, '{"input_tokens":12}')).problem).toBeUndefined();
    expect(checkAnswer(post('/v1/messages/count_tokens'), answer(200, '{"tokens":12}')).problem).toBe('anthropic count_tokens 200 not in its shape');
    const models: RawRequest = { method: 'GET', target: '/v1/models', headers: [['anthropic-version', '2023-06-01']] };
    expect(checkAnswer(models, answer(200, JSON.stringify({ object: 'list', data: [] }))).problem).toBe('anthropic models 200 not in its shape');
  });
});
