import { ResponsesRequestSchema, type ResponsesRequest } from '@chat-relay/contract';
import type { StoredResponseRecord } from '../../storage/types';
import { historyOf, inputItemsOf, newResponseId, pageOfItems } from './responses-items';

const request = (input: unknown): ResponsesRequest => ResponsesRequestSchema.parse({ model: 'gpt-4.1', ...(input === undefined ? {} : { input }) });

/** A stored bridged response: its input items and the output of its Response. */
const record = (id: string, inputItems: unknown[] | null, output?: unknown): StoredResponseRecord => ({
  id,
  accountId: 1,
  tokenId: null,
  origin: 'bridged',
  channelId: null,
  keyDigest: null,
  model: 'gpt-4.1',
  previousResponseId: null,
  status: 'completed',
  response: output === undefined ? null : { id, object: 'response', output },
  inputItems: inputItems as Record<string, unknown>[] | null,
  createdAt: '2026-03-01T00:00:00.000Z',
  expiresAt: '2026-04-01T00:00:00.000Z',
});

const said = (text: string, id = `msg_${text}`) => ({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
const asked = (text: string) => ({ type: 'message', id: `msg_${text}`, role: 'user', content: [{ type: 'input_text', text }] });

describe('newResponseId', () => {
  it('is the prefix, an underscore and 48 hex digits, different every time', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newResponseId('resp')));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(newResponseId('fc')).toMatch(/^fc_[0-9a-f]{48}$/);
  });
});

describe('inputItemsOf', () => {
  it('lists a string input as one user message with an input_text part and a msg_ id', () => {
    const items = inputItemsOf(request('What is the weather in Paris?'));
    expect(items).toEqual([{ id: expect.stringMatching(/^msg_[0-9a-f]{48}$/), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] }]);
  });

  it('lists nothing for a request without input, and an empty string as one empty message', () => {
    expect(inputItemsOf(request(undefined))).toEqual([]);
    expect(inputItemsOf(request([]))).toEqual([]);
    expect(inputItemsOf(request(''))).toEqual([expect.objectContaining({ type: 'message', content: [{ type: 'input_text', text: '' }] })]);
  });

  it("keeps the caller's own ids and every field of the item as sent, giving messages, calls and outputs OpenAI's status", () => {
    const input = [
      { type: 'message', id: 'msg_mine', role: 'user', content: [{ type: 'input_text', text: 'hi' }], status: 'completed' },
      { type: 'function_call', id: 'fc_mine', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call_output', id: 'fco_mine', call_id: 'call_1', output: 'Sunny', x_extra: { kept: true } },
      { type: 'reasoning', id: 'rs_mine', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: 'gAAA' },
      { type: 'item_reference', id: 'msg_earlier' },
    ];
    // ResponseItemList requires a status on messages, function calls and their outputs.
    expect(inputItemsOf(request(input))).toEqual(input.map((item) => (item.type === 'function_call_output' ? { ...item, status: 'completed' } : item)));
  });

  it.each([
    ['a message', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, 'msg'],
    ['a function_call', { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }, 'fc'],
    ['a function_call_output', { type: 'function_call_output', call_id: 'call_1', output: 'ok' }, 'fco'],
    ['a function_call_output with id null', { type: 'function_call_output', id: null, call_id: 'call_1', output: 'ok' }, 'fco'],
    ['a reasoning item', { type: 'reasoning', summary: [] }, 'rs'],
    ['an item type the relay does not model', { type: 'web_search_call', status: 'completed' }, 'item'],
  ])('gives %s without an id one with its prefix', (_name, item, prefix) => {
    const [listed] = inputItemsOf(request([item]));
    const status = ['message', 'function_call', 'function_call_output'].includes(item.type) ? { status: 'completed' } : {};
    expect(listed).toEqual({ ...item, ...status, id: expect.stringMatching(new RegExp(`^${prefix}_[0-9a-f]{48}$`)) });
  });

  it('types an untyped message and turns its string content into a part: input_text from user, system and developer, output_text from the assistant', () => {
    const items = inputItemsOf(
      request([
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'answer' },
        { role: 'system', content: 'be brief' },
        { role: 'developer', content: 'be kind' },
      ]),
    );
    expect(items.map(({ type, role, content }) => ({ type, role, content }))).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'question' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer', annotations: [], logprobs: [] }] },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'be brief' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'be kind' }] },
    ]);
    expect(items.every((item) => /^msg_[0-9a-f]{48}$/.test(String(item['id'])))).toBe(true);
  });

  it('keeps a message whose content is already a list of parts as it is', () => {
    const content = [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' }];
    expect(inputItemsOf(request([{ role: 'user', content }]))[0]).toMatchObject({ type: 'message', content });
  });

  it('gives every item its own id and leaves the request as it came', () => {
    const caller = request([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { type: 'function_call_output', call_id: 'call_1', output: 'c' },
    ]);
    const before = structuredClone(caller);
    const items = inputItemsOf(caller);
    expect(new Set(items.map((item) => item['id'])).size).toBe(3);
    expect(caller).toEqual(before);
  });
});

describe('historyOf', () => {
  it('replays each record oldest first: its input items, then its output', () => {
    const chain = [
      record('resp_1', [asked('one')], [said('first answer')]),
      record('resp_2', [asked('two'), { type: 'function_call_output', id: 'fco_1', call_id: 'call_1', output: 'Sunny' }], [said('second answer'), { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_time', arguments: '{}', status: 'completed' }]),
      record('resp_3', [asked('three')], [said('third answer')]),
    ];
    const history = historyOf(chain);
    expect(history.map((item) => ('id' in item ? item.id : undefined))).toEqual(['msg_one', 'msg_first answer', 'msg_two', 'fco_1', 'msg_second answer', 'fc_2', 'msg_three', 'msg_third answer']);
    expect(history[1]).toEqual(said('first answer'));
  });

  it('reads stored items through the schema: a reasoning item without summary gets summary []', () => {
    const history = historyOf([record('resp_1', [], [{ type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA' }])]);
    expect(history).toEqual([{ type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA', summary: [] }]);
  });

  it('leaves out stored items that do not parse, and keeps the rest in order', () => {
    const chain = [
      record(
        'resp_1',
        [asked('kept'), 'a string', null, 42, { type: 'function_call', id: 'fc_bad', name: 'f', arguments: '{}' }, { role: 'robot', content: 'x' }, { content: 'no role' }],
        [{ type: 'message', id: 'msg_bad', role: 'assistant', content: 7 }, said('also kept'), ['nested']],
      ),
    ];
    expect(historyOf(chain)).toEqual([asked('kept'), said('also kept')]);
  });

  it('keeps an item type it does not model as sent', () => {
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'Paris' } };
    expect(historyOf([record('resp_1', [], [search])])).toEqual([search]);
  });

  it('reads records without a Response, without input items, or whose output is not a list', () => {
    const chain = [
      record('resp_native', null),
      record('resp_no_output', [asked('a')]),
      { ...record('resp_odd', [asked('b')]), response: { id: 'resp_odd', output: { not: 'a list' } } },
      record('resp_3', null, [said('c')]),
    ];
    expect(historyOf(chain)).toEqual([asked('a'), asked('b'), said('c')]);
  });

  it('is empty for an empty chain', () => {
    expect(historyOf([])).toEqual([]);
  });
});

describe('pageOfItems', () => {
  /** item_1 … item_n, oldest first, as they are stored. */
  const items = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `item_${index + 1}`, type: 'message', role: 'user', content: [] }));
  const ids = (page: { data: Array<{ id: string }> }) => page.data.map((item) => item.id.replace('item_', ''));

  it('lists newest first by default, at most 20, and says there are more', () => {
    const page = pageOfItems(items(25), {});
    expect(ids(page)).toEqual(Array.from({ length: 20 }, (_, index) => String(25 - index)));
    expect(page).toMatchObject({ object: 'list', first_id: 'item_25', last_id: 'item_6', has_more: true });
  });

  it('lists oldest first with order asc', () => {
    const page = pageOfItems(items(5), { order: 'asc' });
    expect(ids(page)).toEqual(['1', '2', '3', '4', '5']);
    expect(page).toMatchObject({ first_id: 'item_1', last_id: 'item_5', has_more: false });
    expect(ids(pageOfItems(items(5), { order: 'desc' }))).toEqual(['5', '4', '3', '2', '1']);
  });

  it('has more only while items remain past the limit', () => {
    expect(pageOfItems(items(3), { limit: 3 }).has_more).toBe(false);
    expect(pageOfItems(items(3), { limit: 2 }).has_more).toBe(true);
    expect(pageOfItems(items(3), { limit: 100 })).toMatchObject({ has_more: false, first_id: 'item_3', last_id: 'item_1' });
  });

  it('continues after a cursor in the order asked, and pages walk the whole list once', () => {
    expect(ids(pageOfItems(items(6), { after: 'item_4', limit: 2 }))).toEqual(['3', '2']);
    expect(ids(pageOfItems(items(6), { order: 'asc', after: 'item_4' }))).toEqual(['5', '6']);
    const walked: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = pageOfItems(items(7), { order: 'asc', limit: 3, ...(after ? { after } : {}) });
      walked.push(...ids(page));
      if (!page.has_more) break;
      after = page.last_id ?? undefined;
    }
    expect(walked).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('stops before a cursor, and takes both cursors at once', () => {
    expect(ids(pageOfItems(items(6), { before: 'item_3' }))).toEqual(['6', '5', '4']);
    expect(ids(pageOfItems(items(6), { order: 'asc', before: 'item_3' }))).toEqual(['1', '2']);
    const between = pageOfItems(items(6), { after: 'item_6', before: 'item_2' });
    expect(ids(between)).toEqual(['5', '4', '3']);
    expect(between).toMatchObject({ first_id: 'item_5', last_id: 'item_3', has_more: false });
  });

  it('answers an empty page with null ids after the last item', () => {
    expect(pageOfItems(items(3), { after: 'item_1' })).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    expect(pageOfItems([], {})).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  });

  it('an unknown cursor is a 400 naming it, as OpenAI answers (native and bridged channels agree)', () => {
    expect(() => pageOfItems(items(3), { after: 'item_nowhere' })).toThrow(expect.objectContaining({ status: 400, param: 'after', message: "Item with id 'item_nowhere' not found." }));
    expect(() => pageOfItems(items(3), { before: 'item_nowhere' })).toThrow(expect.objectContaining({ status: 400, param: 'before' }));
  });

  it('lists only items with a string id and type, and leaves the stored list in its order', () => {
    const stored: Array<Record<string, unknown>> = [...items(2), { type: 'message' }, { id: 7, type: 'message' }, { id: 'item_x' }, { id: 'item_3', type: 'function_call_output', call_id: 'c', output: 'o' }];
    const before = structuredClone(stored);
    const page = pageOfItems(stored, {});
    expect(page.data.map((item) => item.id)).toEqual(['item_3', 'item_2', 'item_1']);
    expect(page.data[0]).toEqual({ id: 'item_3', type: 'function_call_output', call_id: 'c', output: 'o' });
    expect(stored).toEqual(before);
  });
});
