import { RelayApiError } from '@chat-relay/client';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { chunkFeed, chunkOf } from '../../testing/chunk-feed';
import { fakeClient } from '../../testing/fake-client';
import { assistantFixture, pageOf } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { PlaygroundPage } from './playground-page';

/** The page with its suggestions loaded (so no update lands after a test ends). */
async function openPlayground() {
  const feed = chunkFeed();
  const tokens: string[] = [];
  const { client } = fakeClient({
    accounts: { listCallerModels: () => ({ status: 200, body: { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 1, owned_by: 'relay' }] } }) },
    assistants: { listAssistants: () => ({ status: 200, body: pageOf([assistantFixture({ id: 'g-helper', models: null })]) }) },
  });
  renderPage(
    <PlaygroundPage
      clientForToken={(token) => {
        tokens.push(token);
        return { streamChatCompletion: feed.stream };
      }}
    />,
    { client },
  );
  await waitFor(() => expect(document.querySelectorAll('datalist option')).toHaveLength(2));
  return { feed, tokens };
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const fillAndSend = (message = 'Weather in Paris?') => {
  type('API token', 'sk-test-token');
  type('Model', 'gpt-4o');
  type('Message', message);
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
};

describe('Playground', () => {
  it('keeps the API token in a password field that the browser does not fill', async () => {
    await openPlayground();
    const field = screen.getByLabelText('API token');
    expect(field.getAttribute('type')).toBe('password');
    expect(field.getAttribute('autocomplete')).toBe('off');
    // The browser tests find fields by label, loosely: each must name one field.
    for (const label of ['API token', 'Model', 'System prompt', 'Message']) expect(screen.getAllByLabelText(new RegExp(label, 'i'))).toHaveLength(1);
  });

  it('suggests the caller’s models and its assistants’ gizmo names', async () => {
    await openPlayground();
    await waitFor(() => expect([...document.querySelectorAll('datalist option')].map((option) => option.getAttribute('value'))).toEqual(['gpt-4o', 'gpt-4o-gizmo-g-helper']));
  });

  it('shows the answer growing chunk by chunk, then a tool call and the usage', async () => {
    const { feed, tokens } = await openPlayground();
    type('System prompt', 'Be brief.');
    type('Tools (JSON)', JSON.stringify([{ type: 'function', function: { name: 'get_weather' } }]));
    fillAndSend();

    await act(async () => feed.push(chunkOf({ role: 'assistant', content: 'Let me ' })));
    const answer = await screen.findByTestId('assistant-message');
    await waitFor(() => expect(answer.textContent).toBe('Let me '));
    expect(answer.getAttribute('aria-live')).toBe('polite');
    await act(async () => feed.push(chunkOf({ content: 'check.' })));
    await waitFor(() => expect(answer.textContent).toBe('Let me check.'));

    await act(async () => feed.push(chunkOf({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }] })));
    await act(async () => feed.push(chunkOf({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] })));
    await act(async () => feed.push({ ...chunkOf({}), choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }));
    await act(async () => feed.push(chunkOf(null, { usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 } })));
    await act(async () => feed.end());

    const call = await screen.findByTestId('tool-call');
    expect(call.textContent).toContain('get_weather');
    expect(call.querySelector('pre')?.textContent).toBe('{\n  "city": "Paris"\n}');
    expect(await screen.findByText(/Tokens: 20 prompt · 7 completion · 27 total/)).toBeTruthy();
    expect(screen.getByText(/finish: tool_calls/)).toBeTruthy();
    expect(tokens).toEqual(['sk-test-token']);
    expect(feed.requests[0]).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
    });
    expect(document.querySelector('[data-role="user"]')?.textContent).toBe('Weather in Paris?');
  });

  it('shows the relay’s refusal with its request id, leaving no empty answer', async () => {
    const { feed } = await openPlayground();
    fillAndSend();
    await act(async () => feed.fail(new RelayApiError({ status: 404, message: "The model 'nope' does not exist", type: 'invalid_request_error', code: 'model_not_found', param: 'model', requestId: 'req_stream_9' })));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("The model 'nope' does not exist");
    expect(alert.textContent).toContain('req_stream_9');
    expect(screen.queryByTestId('assistant-message')).toBeNull();
  });

  it('stops a streaming answer and keeps what arrived', async () => {
    const { feed } = await openPlayground();
    fillAndSend();
    await act(async () => feed.push(chunkOf({ content: 'A long' })));
    const stop = screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement;
    await waitFor(() => expect(stop.disabled).toBe(false));
    fireEvent.click(stop);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId('assistant-message').textContent).toBe('A long');
    expect(screen.getByText(/stopped/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends with Ctrl+Enter, and asks for a token instead of sending without one', async () => {
    const { feed } = await openPlayground();
    type('Model', 'gpt-4o');
    type('Message', 'Hi');
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter', ctrlKey: true });
    expect((await screen.findByRole('alert')).textContent).toContain('API token');
    expect(feed.requests).toHaveLength(0);

    type('API token', 'sk-x');
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter', metaKey: true });
    await waitFor(() => expect(feed.requests).toHaveLength(1));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });
});
