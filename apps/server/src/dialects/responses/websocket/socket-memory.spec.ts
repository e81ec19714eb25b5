import { continueFromMemory, inputItemsOf, rememberResponse } from './socket-memory';
import { errorEventOfAnswer } from './socket-events';

const answer = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!' }] };

describe('a Responses WebSocket remembers its last response', () => {
  it('a string input is one user message; items are kept as sent', () => {
    expect(inputItemsOf('Hello')).toEqual([{ type: 'message', role: 'user', content: 'Hello' }]);
    expect(inputItemsOf([answer])).toEqual([answer]);
    expect(inputItemsOf(undefined)).toEqual([]);
  });

  it('continues an unstored last response: its input and output before the new input, the reference dropped', () => {
    const last = rememberResponse({ model: 'm', input: 'Hello', store: false }, { id: 'resp_1', output: [answer] });
    const next = continueFromMemory({ model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 'ok' }], previous_response_id: 'resp_1', store: false }, last);
    expect(next).toEqual({
      model: 'm',
      store: false,
      input: [{ type: 'message', role: 'user', content: 'Hello' }, answer, { type: 'function_call_output', call_id: 'c', output: 'ok' }],
    });
  });

  it('chains: the remembered conversation grows turn by turn', () => {
    const first = rememberResponse({ input: 'one', store: false }, { id: 'resp_1', output: [answer] });
    const sent = continueFromMemory({ input: 'two', previous_response_id: 'resp_1', store: false }, first);
    const second = rememberResponse(sent, { id: 'resp_2', output: [answer] });
    expect(second.items).toHaveLength(4);
    expect(continueFromMemory({ input: 'three', previous_response_id: 'resp_2' }, second)['input']).toHaveLength(5);
  });

  it('leaves a stored response, another id, or no reference to the relay as over HTTP', () => {
    const stored = rememberResponse({ input: 'Hello' }, { id: 'resp_1', output: [answer] });
    const body = { input: 'x', previous_response_id: 'resp_1' };
    expect(continueFromMemory(body, stored)).toBe(body);
    const unstored = rememberResponse({ input: 'Hello', store: false }, { id: 'resp_1', output: [answer] });
    const other = { input: 'x', previous_response_id: 'resp_0' };
    expect(continueFromMemory(other, unstored)).toBe(other);
    expect(continueFromMemory(other, undefined)).toBe(other);
    const plain = { input: 'x' };
    expect(continueFromMemory(plain, unstored)).toBe(plain);
  });
});

describe('a refused request as the error event', () => {
  it("carries the answer's status and OpenAI error body", () => {
    const body = { error: { message: 'No such model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };
    expect(JSON.parse(errorEventOfAnswer(404, JSON.stringify(body)))).toEqual({ type: 'error', status: 404, ...body });
  });

  it('an answer without an error body is a server error with the status kept', () => {
    expect(JSON.parse(errorEventOfAnswer(502, '<html>bad gateway</html>'))).toMatchObject({ type: 'error', status: 502, error: { type: 'server_error' } });
  });
});
