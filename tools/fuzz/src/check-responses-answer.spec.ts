import { checkAnswer } from './check-answer';
import { responsesRouteOf, responsesSseProblem } from './check-responses-answer';
import type { RawOutcome, RawRequest } from './raw-http';

const body = { model: 'gpt-4.1', input: 'hi', stream: true };
const post = (sent: unknown = body, target = '/v1/responses'): RawRequest => ({
  method: 'POST',
  target,
  headers: [['Authorization', 'Bearer sk-x'], ['Content-Type', 'application/json']],
  body: Buffer.from(JSON.stringify(sent)),
});

const answer = (status: number, text: string, headers: Record<string, string> = {}): RawOutcome => ({
  kind: 'response',
  response: { status, headers: { 'x-request-id': 'req_1', 'content-type': 'application/json', ...headers }, body: Buffer.from(text), aborted: false },
});
const errorBody = (code: string | null, type = 'invalid_request_error') => JSON.stringify({ error: { message: 'Something.', type, param: null, code } });

const response = (status = 'completed', model = 'gpt-4.1', id = 'resp_1') => ({ id, object: 'response', created_at: 1, status, model, output: [], usage: null });
const frame = (event: string, data: Record<string, unknown>) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
const lifecycle = (event: string, sequence: number, status = 'in_progress', id = 'resp_1') => frame(event, { sequence_number: sequence, response: response(status, 'gpt-4.1', id) });
const stream = (text: string) => answer(200, text, { 'content-type': 'text/event-stream; charset=utf-8' });
const completed = [lifecycle('response.created', 0), lifecycle('response.in_progress', 1), lifecycle('response.completed', 2, 'completed')].join('');

describe('responsesRouteOf: the answers held to the Responses API shapes', () => {
  it.each([
    ['POST', '/v1/responses', 'create'],
    ['POST', '/V1/Responses/?stream=true', 'create'],
    ['GET', '/v1/responses', undefined],
    ['GET', '/v1/responses/resp_1', 'retrieve'],
    ['DELETE', '/v1/responses/resp_1', 'delete'],
    ['POST', '/v1/responses/resp_1', undefined],
    ['GET', '/v1/responses/resp_1/input_items?limit=2', 'input_items'],
    ['POST', '/v1/responses/resp_1/cancel', 'cancel'],
    ['GET', '/v1/responses/resp_1/cancel', undefined],
    ['GET', '/v1/responses/a/b', undefined],
    ['POST', '/v1//responses', undefined],
    ['POST', '/v1/chat/completions', undefined],
  ] as const)('%s %s → %s', (method, target, route) => {
    expect(responsesRouteOf({ method, target, headers: [] })).toBe(route);
  });
});

describe('responsesSseProblem', () => {
  it('passes a whole lifecycle and names the model', () => {
    expect(responsesSseProblem(completed)).toEqual({ failed: false, model: 'gpt-4.1' });
  });

  it('passes a stream ended by an error event, or by response.failed, as failed', () => {
    const error = frame('error', { sequence_number: 2, code: 'server_error', message: 'Gone.', param: null });
    expect(responsesSseProblem(lifecycle('response.created', 0) + lifecycle('response.in_progress', 1) + error)).toMatchObject({ failed: true });
    expect(responsesSseProblem(lifecycle('response.created', 0) + lifecycle('response.failed', 1, 'failed'))).toMatchObject({ failed: true });
  });

  it.each([
    ['a gap in the sequence numbers', lifecycle('response.created', 0) + lifecycle('response.completed', 2, 'completed'), 'sequence_number 2, 1 expected'],
    ['numbers not from 0', lifecycle('response.created', 1) + lifecycle('response.completed', 2, 'completed'), 'sequence_number 1, 0 expected'],
    ['an error event numbered 0 after others', lifecycle('response.created', 0) + frame('error', { sequence_number: 0, message: 'x' }), 'sequence_number 0, 1 expected'],
    ['two response ids', lifecycle('response.created', 0) + lifecycle('response.completed', 1, 'completed', 'resp_2'), 'names response resp_2'],
    ['no terminal event', lifecycle('response.created', 0) + lifecycle('response.in_progress', 1), 'no terminal event'],
    ['an event after the end', completed + lifecycle('response.in_progress', 3), 'after response.completed'],
    ['[DONE]', `${completed}data: [DONE]\n\n`, '[DONE]'],
    ['an unnamed event', `data: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: response() })}\n\n`, 'without a name'],
    ['a name that is not the type', `event: response.created\ndata: ${JSON.stringify({ type: 'response.in_progress', sequence_number: 0, response: response() })}\n\n`, 'carries type'],
    ['an invalid event', frame('response.created', { sequence_number: 0, response: { id: 'resp_1' } }), 'response.created event invalid'],
    ['a stream not starting with response.created', lifecycle('response.in_progress', 0) + lifecycle('response.completed', 1, 'completed'), 'starts with response.in_progress'],
    ['an empty stream', '', 'an empty stream'],
  ])('finds %s', (_name, text, problem) => {
    expect(responsesSseProblem(text).problem).toContain(problem);
  });
});

describe('checkAnswer on a Responses route', () => {
  it('passes OpenAI-shaped 4xx errors, and 5xx ones only when the upstream was asked to fail', () => {
    expect(checkAnswer(post(), answer(400, errorBody('invalid_value')))).toEqual({ statusKey: '400' });
    expect(checkAnswer(post(), answer(502, errorBody(null, 'upstream_error'))).problem).toBe('responses 502 upstream_error');
    expect(checkAnswer(post(), answer(502, errorBody(null, 'upstream_error')), true)).toEqual({ statusKey: '502' });
  });

  it('never passes a 500 internal_error, nor an error not in the shape', () => {
    expect(checkAnswer(post(), answer(500, errorBody('internal_error', 'server_error')), true).problem).toBe('responses 500 internal_error');
    expect(checkAnswer(post(), answer(404, JSON.stringify({ error: 'Not found' }))).problem).toContain('no error object');
    expect(checkAnswer(post(), answer(400, 'Bad Request')).problem).toContain('not JSON');
  });

  it('holds a JSON Response to its schema, the model asked for, and the stream flag', () => {
    const unstreamed = post({ ...body, stream: false });
    expect(checkAnswer(unstreamed, answer(200, JSON.stringify(response())))).toEqual({ statusKey: '200' });
    expect(checkAnswer(unstreamed, answer(200, JSON.stringify(response('completed', 'gpt-4o')))).problem).toContain('answered as model "gpt-4o"');
    expect(checkAnswer(unstreamed, answer(200, JSON.stringify({ id: 'resp_1', object: 'response' }))).problem).toContain('not in its shape');
    expect(checkAnswer(post(), answer(200, JSON.stringify(response()))).problem).toBe('a JSON answer to a streamed request');
    expect(checkAnswer(unstreamed, answer(200, JSON.stringify(response('failed')))).problem).toBe('a failed Response with no upstream fault asked');
    expect(checkAnswer(unstreamed, answer(200, JSON.stringify(response('failed'))), true)).toEqual({ statusKey: '200' });
  });

  it('passes a stream, fails one that failed unasked, and holds it to the model asked for', () => {
    expect(checkAnswer(post(), stream(completed))).toEqual({ statusKey: '200-sse' });
    const failed = lifecycle('response.created', 0) + lifecycle('response.failed', 1, 'failed');
    expect(checkAnswer(post(), stream(failed)).problem).toBe('a stream failed with no upstream fault asked');
    expect(checkAnswer(post(), stream(failed), true)).toEqual({ statusKey: '200-sse-failed' });
    expect(checkAnswer(post({ ...body, model: 'gpt-4.1-mini' }), stream(completed)).problem).toContain('answered as model "gpt-4.1"');
  });

  it('holds the other routes to their own shapes', () => {
    const get = (target: string, method = 'GET'): RawRequest => ({ method, target, headers: [] });
    expect(checkAnswer(get('/v1/responses/resp_1'), answer(200, JSON.stringify(response())))).toEqual({ statusKey: '200' });
    expect(checkAnswer(get('/v1/responses/resp_1', 'DELETE'), answer(200, JSON.stringify({ id: 'resp_1', object: 'response', deleted: true })))).toEqual({ statusKey: '200' });
    expect(checkAnswer(get('/v1/responses/resp_1', 'DELETE'), answer(200, JSON.stringify(response()))).problem).toContain('not in its shape');
    const page = { object: 'list', data: [{ id: 'msg_1', type: 'message' }], first_id: 'msg_1', last_id: 'msg_1', has_more: false };
    expect(checkAnswer(get('/v1/responses/resp_1/input_items'), answer(200, JSON.stringify(page)))).toEqual({ statusKey: '200' });
    expect(checkAnswer(get('/v1/responses/resp_1/input_items'), answer(200, JSON.stringify({ ...page, data: [{ id: 'x' }] }))).problem).toContain('not in its shape');
    expect(checkAnswer(get('/v1/responses/resp_1'), stream(completed)).problem).toBe('a stream from the retrieve route');
  });

  it("leaves an answer no route wrote (no x-request-id) to the generic checks", () => {
    const outcome: RawOutcome = { kind: 'response', response: { status: 400, headers: { 'content-type': 'application/json' }, body: Buffer.from(errorBody('invalid_http')), aborted: false } };
    expect(checkAnswer(post(), outcome)).toEqual({ statusKey: '400' });
  });
});
