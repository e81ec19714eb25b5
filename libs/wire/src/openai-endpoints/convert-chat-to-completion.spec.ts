import { ChatToCompletionStream, completionIdOf, convertChatToCompletion } from './convert-chat-to-completion';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-abc', object: 'chat.completion.chunk', created: 5, model: 'my-model', choices, ...extra });

describe('ChatToCompletionStream', () => {
  it('sends nothing for the opening role delta, then one text_completion chunk per text or finish', () => {
    const stream = new ChatToCompletionStream();
    expect(stream.transform(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]))).toEqual([]);
    const [text] = stream.transform(chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: null }]));
    expect(text?.kind === 'chunk' && JSON.parse(text.json)).toEqual({
      id: 'cmpl-abc',
      object: 'text_completion',
      created: 5,
      model: 'my-model',
      choices: [{ text: 'Hi', index: 0, logprobs: null, finish_reason: null }],
    });
    const [end] = stream.transform(chunk([{ index: 1, delta: {}, finish_reason: 'tool_calls' }, { index: 0, delta: {}, finish_reason: 'length' }]));
    expect(end?.kind === 'chunk' && JSON.parse(end.json).choices).toEqual([
      { text: '', index: 1, logprobs: null, finish_reason: 'stop' },
      { text: '', index: 0, logprobs: null, finish_reason: 'length' },
    ]);
    expect(stream.finish()).toEqual([]);
  });

  it('keeps the usage chunk, and turns an error chunk into an error step', () => {
    const stream = new ChatToCompletionStream();
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const [usageStep] = stream.transform(chunk([], { usage }));
    expect(usageStep?.kind === 'chunk' && JSON.parse(usageStep.json)).toMatchObject({ object: 'text_completion', choices: [], usage });
    const [error] = stream.transform(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: 'overloaded' } }));
    expect(error).toMatchObject({ kind: 'error', error: { code: 'overloaded' } });
    expect(stream.transform('not json')).toMatchObject([{ kind: 'error', error: { code: 'bad_response' } }]);
  });
});

describe('convertChatToCompletion', () => {
  it('gives every choice its text (empty for none) and a completion finish reason', () => {
    const chat = {
      id: 'msg_1',
      object: 'chat.completion',
      created: 9,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }],
    };
    expect(convertChatToCompletion(chat)).toEqual({
      id: 'cmpl-msg_1',
      object: 'text_completion',
      created: 9,
      model: 'm',
      choices: [{ text: '', index: 0, logprobs: null, finish_reason: 'content_filter' }],
    });
    expect(completionIdOf('chatcmpl-x')).toBe('cmpl-x');
  });
});
