import { lost } from '../../testing/lost';
import { bridgeErrorFor, bridgedMessages, bridgeResponses, nativeOnlyOf } from '../testing/bridge-responses-request';

const NATIVE = 'is only available on channels that speak the Responses API natively.';
const user = (content: unknown) => ({ role: 'user', content });
const call = (callId: string, name: string, args: string, id = `fc_${callId}`) => ({ type: 'function_call', id, call_id: callId, name, arguments: args });
const output = (callId: string, out: unknown) => ({ type: 'function_call_output', call_id: callId, output: out });

describe('convertResponsesToChat: message items', () => {
  it('message items by role, typed or not; developer stays developer (the hub takes it)', () => {
    expect(
      bridgedMessages([
        { role: 'developer', content: 'Rules.' },
        { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'More rules.' }] },
        { type: 'message', role: 'user', content: 'Question?' },
        { role: 'assistant', content: 'Answer.' },
      ]),
    ).toEqual([
      { role: 'developer', content: 'Rules.' },
      { role: 'system', content: 'More rules.' },
      { role: 'user', content: 'Question?' },
      { role: 'assistant', content: 'Answer.' },
    ]);
  });

  it('user parts: text, images with their detail, files by data or by id', () => {
    const content = [
      { type: 'input_text', text: 'Look:' },
      { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
      { type: 'input_file', file_id: 'file-123' },
    ];
    expect(bridgedMessages([user(content)])).toEqual([
      user([
        { type: 'text', text: 'Look:' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
        { type: 'file', file: { file_id: 'file-123' } },
      ]),
    ]);
  });

  it('a lone text part is a plain string; several text parts stay parts', () => {
    expect(bridgedMessages([user([{ type: 'input_text', text: 'One' }])])).toEqual([user('One')]);
    expect(bridgedMessages([user([{ type: 'input_text', text: 'A' }, { type: 'input_text', text: 'B' }])])).toEqual([
      user([
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ]),
    ]);
  });

  it('an image only by file_id and a file by file_url are fetched by OpenAI: native only, naming the field', () => {
    expect(nativeOnlyOf({ input: [user([{ type: 'input_text', text: 'x' }, { type: 'input_image', file_id: 'file-1' }])] })).toEqual([
      'input[0].content[1].file_id',
      `'input[0].content[1].file_id': an image given by file_id (a file stored at OpenAI) ${NATIVE}`,
    ]);
    expect(nativeOnlyOf({ input: [user([{ type: 'input_file', file_url: 'https://example.com/a.pdf' }])] })?.[0]).toBe(
      'input[0].content[0].file_url',
    );
  });

  it('an image with neither url nor file_id is a plain 400', () => {
    expect(bridgeErrorFor({ input: [user([{ type: 'input_image' }])] }).param).toBe('input[0].content[0].image_url');
  });

  it('a part type Chat Completions has no place for is native only; so is an image in a system message', () => {
    expect(nativeOnlyOf({ input: [user([{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }])] })?.[0]).toBe('input[0].content[0].type');
    expect(nativeOnlyOf({ input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }, user('Hi')] })?.[0]).toBe(
      'input[0].content[0].type',
    );
  });

  it('assistant message items: output_text and refusal parts → the assistant text; an empty one is not sent', () => {
    expect(
      bridgedMessages([
        user('Q'),
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'Part one, ', annotations: [], logprobs: [] },
            { type: 'output_text', text: 'part two.', annotations: [] },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] },
        { role: 'assistant', content: '' },
        user('Next'),
      ]),
    ).toEqual([user('Q'), { role: 'assistant', content: 'Part one, part two.' }, { role: 'assistant', content: 'I cannot.' }, user('Next')]);
  });
});

describe('convertResponsesToChat: calls, outputs, reasoning, references', () => {
  it('an assistant message and the consecutive function calls after it are ONE assistant message; outputs are tool messages', () => {
    const { request, warnings } = bridgeResponses({
      input: [
        user('Weather in Paris and Rome?'),
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Two calls.' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.' }] },
        { type: 'reasoning', id: 'rs_2', summary: [] },
        call('call_p', 'weather', '{"city":"Paris"}'),
        call('call_r', 'weather', '{"city":"Rome"}'),
        output('call_p', 'sunny'),
        output('call_r', 'rain'),
      ],
    });
    expect(request.messages).toEqual([
      user('Weather in Paris and Rome?'),
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'call_p', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_r', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_p', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_r', content: 'rain' },
    ]);
    expect(warnings).toEqual([lost('input[*](reasoning)')]);
  });

  it('calls with no assistant message before them make one with null content; a call after a tool output starts a new one', () => {
    expect(
      bridgedMessages([user('Go'), call('c1', 'step', '{}'), output('c1', 'ok'), call('c2', 'step', '{}'), output('c2', 'ok')]),
    ).toEqual([
      user('Go'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'step', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'step', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    ]);
  });

  it('an output made of parts: texts joined, images and files in a user message after ALL the tool messages', () => {
    const { request, warnings } = bridgeResponses({
      input: [
        user('Shots?'),
        call('a', 'shot', '{}'),
        call('b', 'shot', '{}'),
        output('a', [
          { type: 'input_text', text: 'First.' },
          { type: 'input_image', image_url: 'https://example.com/a.png' },
          { type: 'input_text', text: 'Done.' },
        ]),
        output('b', [{ type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'b.pdf' }]),
        user('Describe them.'),
      ],
    });
    expect(request.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'First.\n\nDone.' },
      { role: 'tool', tool_call_id: 'b', content: '' },
      user([
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'b.pdf' } },
      ]),
      user('Describe them.'),
    ]);
    expect(warnings).toEqual([lost('input[*].output', 'mapped')]);
  });

  it('media of the last output are not lost at the end of the input', () => {
    const messages = bridgedMessages([user('x'), call('a', 'shot', '{}'), output('a', [{ type: 'input_image', image_url: 'https://e/x.png' }])]);
    expect(messages.at(-1)).toEqual(user([{ type: 'image_url', image_url: { url: 'https://e/x.png' } }]));
  });

  it('item_reference → the item it names, from the history or the input', () => {
    const history = [user('Earlier'), { type: 'message', id: 'msg_a', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Earlier answer.' }] }];
    const messages = bridgedMessages(
      [{ type: 'message', id: 'msg_u', role: 'user', content: 'Again' }, { type: 'item_reference', id: 'msg_a' }, { type: 'item_reference', id: 'msg_u' }],
      {},
      history,
    );
    expect(messages).toEqual([
      user('Earlier'),
      { role: 'assistant', content: 'Earlier answer.' },
      user('Again'),
      { role: 'assistant', content: 'Earlier answer.' },
      user('Again'),
    ]);
  });

  it('an item_reference naming nothing here is native only (the upstream may store it): a 400 naming its id for bridged channels', () => {
    const fields = { input: [user('x'), { type: 'item_reference', id: 'msg_missing' }] };
    expect(nativeOnlyOf(fields)).toEqual(['input[1].id', "Item with id 'msg_missing' not found."]);
    expect(bridgeResponses(fields).request.messages).toEqual([user('x')]);
  });

  it('a web_search_call item of an earlier turn is dropped with a warning: its answer stays, the conversation still bridges', () => {
    const searched = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'weather' } };
    const { request, warnings, nativeOnly } = bridgeResponses({ input: [user('Weather?'), searched, { role: 'assistant', content: 'Sunny ([1](https://w.example)).' }, user('Tomorrow?')] });
    expect(nativeOnly).toBeUndefined();
    expect(request.messages).toEqual([user('Weather?'), { role: 'assistant', content: 'Sunny ([1](https://w.example)).' }, user('Tomorrow?')]);
    expect(warnings).toEqual([lost('input[*](web_search_call)')]);
    // Stored by the relay for previous_response_id: the same.
    expect(nativeOnlyOf({ input: 'Now?' }, [searched])).toBeUndefined();
  });

  it('codex_custom_tool_call_refused: custom_tool_call → a custom tool call (namespaced name), its output → a tool message; a namespaced function_call too', () => {
    const messages = bridgedMessages([
      user('Go'),
      { type: 'custom_tool_call', id: 'ctc_1', status: 'completed', call_id: 'call_1', name: 'exec', namespace: 'functions', input: 'text(1)' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_2', name: 'sleep', namespace: 'clock', arguments: '{}' },
      { type: 'custom_tool_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'Script completed' }] },
      { type: 'function_call_output', call_id: 'call_2', output: 'slept' },
    ]);
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'custom', custom: { name: 'functions__exec', input: 'text(1)' } },
          { id: 'call_2', type: 'function', function: { name: 'clock__sleep', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Script completed' },
      { role: 'tool', tool_call_id: 'call_2', content: 'slept' },
    ]);
  });

  it('a malformed custom_tool_call is a 400 naming its field', () => {
    expect(bridgeErrorFor({ input: [user('Go'), { type: 'custom_tool_call', call_id: 'call_1', name: 'exec' }] }).param).toBe('input[1].input');
  });

  it.each(['computer_call', 'computer_call_output', 'mcp_call', 'mcp_approval_response', 'local_shell_call', 'image_generation_call'])(
    'a %s item is native only, naming input[i].type and the type',
    (type) => {
      expect(nativeOnlyOf({ input: [user('x'), { type, id: 'x_1' }] })).toEqual(['input[1].type', `'input[1].type': a '${type}' item ${NATIVE}`]);
    },
  );

  it('history comes after the instructions and before the input; its own native-only items name previous_response_id', () => {
    expect(bridgedMessages('Now?', { instructions: 'Sys.' }, [user('Before'), { role: 'assistant', content: 'Ok.' }])).toEqual([
      { role: 'system', content: 'Sys.' },
      user('Before'),
      { role: 'assistant', content: 'Ok.' },
      user('Now?'),
    ]);
    expect(nativeOnlyOf({ input: 'Now?' }, [{ type: 'file_search_call', id: 'fs_1' }])?.[0]).toBe('previous_response_id');
  });

  it('history of a tool round trip: the stored call and the new output meet as a proper pair', () => {
    const history = [user('Weather?'), call('call_1', 'weather', '{"city":"Paris"}')];
    expect(bridgedMessages([output('call_1', '18C')], {}, history)).toEqual([
      user('Weather?'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
    ]);
  });
});
