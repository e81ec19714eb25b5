import { lost } from '../../testing/lost';
import { ChatCompletionRequestSchema, ResponseObjectSchema, type ChatCompletion, type SearchResult } from '@chat-relay/contract';
import { expectOpenAiValid } from '../../gemini/testing/expect-openai-valid';
import { searchQueryOf, webSearchCallItem, withWebSearchSources, WEB_SEARCH_SOURCES_MAX_BYTES, type WebSearchOutcome } from './bridge-web-search';
import { ChatToResponsesStream } from './chat-to-responses-stream';
import { convertChatToResponse } from './convert-chat-to-response';
import { bridgeErrorFor, bridgeResponses, responsesRequest } from '../testing/bridge-responses-request';
import { CREATED_AT, PUBLIC_MODEL, RESPONSE_ID, sequentialIds } from '../testing/responses-identity';
import { eventsOf, expectValidResponsesStream, sdkFinalResponse } from '../testing/responses-stream-checks';

const results: SearchResult[] = [
  { title: 'Paris weather', url: 'https://weather.example/paris', snippet: 'Sunny, 24°C.', published_at: '2025-06-01T08:00:00.000Z' },
  { title: 'Météo', url: 'https://meteo.example/paris', snippet: '' },
];
const completed: WebSearchOutcome = { status: 'completed', query: 'weather in Paris', results };
const failed: WebSearchOutcome = { status: 'failed', query: 'weather in Paris', reason: 'no search channel' };
const planOf = (fields: Record<string, unknown>) => bridgeResponses({ tools: [{ type: 'web_search' }], ...fields }).webSearch?.request;

describe('webSearchPlanOf (through convertResponsesToChat)', () => {
  it('searches the latest user text; search_context_size low / medium / high → 3 / 5 / 8 results (5 by default)', () => {
    const input = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'an answer' },
      { role: 'user', content: [{ type: 'input_text', text: ' weather \n in' }, { type: 'input_text', text: 'Paris?' }] },
    ];
    expect(planOf({ input })).toEqual({ query: 'weather in Paris?', max_results: 5 });
    for (const [size, count] of [['low', 3], ['medium', 5], ['high', 8]] as const) {
      expect(planOf({ tools: [{ type: 'web_search_preview', search_context_size: size }] })?.max_results).toBe(count);
    }
  });

  it('cuts a long question to 400 characters, on a word boundary', () => {
    const query = planOf({ input: `${'word '.repeat(100)}end` })?.query ?? '';
    expect(query.length).toBeLessThanOrEqual(400);
    expect(query.endsWith('word')).toBe(true);
    expect(searchQueryOf([{ role: 'user', content: 'x'.repeat(1_000) }])).toHaveLength(400);
  });

  it('no user text (an image only) leaves the query undefined: the search will not run', () => {
    expect(planOf({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] })).toEqual({ query: undefined, max_results: 5 });
  });

  it('filters.allowed_domains → include_domains, pasted schemes and paths cut off', () => {
    const tools = [{ type: 'web_search', filters: { allowed_domains: ['pubmed.ncbi.nlm.nih.gov', 'https://Www.Example.com/path?q=1'] } }];
    expect(planOf({ tools })?.include_domains).toEqual(['pubmed.ncbi.nlm.nih.gov', 'www.example.com']);
    expect(planOf({ tools: [{ type: 'web_search', filters: { allowed_domains: [] } }] })).not.toHaveProperty('include_domains');
  });

  it('a domain the search cannot take is a 400 naming it', () => {
    const error = bridgeErrorFor({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search', filters: { allowed_domains: ['example.com', 'not a domain'] } }] });
    expect({ status: error.status, param: error.param, code: error.code }).toEqual({ status: 400, param: 'tools[1].filters.allowed_domains[1]', code: 'invalid_value' });
    expect(bridgeErrorFor({ tools: [{ type: 'web_search', filters: { allowed_domains: 'example.com' } }] }).param).toBe('tools[0].filters.allowed_domains');
  });

  it('user_location is not sent and a second web_search tool adds nothing, each warned', () => {
    const { warnings, webSearch } = bridgeResponses({
      tools: [{ type: 'web_search', user_location: { type: 'approximate', city: 'Paris' } }, { type: 'web_search_preview', search_context_size: 'high' }],
    });
    expect(webSearch?.request.max_results).toBe(5);
    expect(warnings).toEqual([lost('tools[*](web_search)'), lost('tools[0].user_location')]);
  });
});

describe('withWebSearchSources', () => {
  const base = ChatCompletionRequestSchema.parse({
    model: 'm',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Rules.' },
      { role: 'user', content: 'weather in Paris' },
    ],
  });

  it('adds one system message after the leading instructions: numbered sources, URL, date, snippet, asking for URL citations', () => {
    const sent = withWebSearchSources(base, completed);
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'developer', 'system', 'user']);
    expect(sent.messages[2]?.content).toBe(
      [
        'Web search results for "weather in Paris":',
        '[1] Paris weather\nURL: https://weather.example/paris\nPublished: 2025-06-01\nSunny, 24°C.',
        '[2] Météo\nURL: https://meteo.example/paris',
        'Use these sources where they are relevant to answer, and cite each source you use by its URL, e.g. "… ([1](https://…))". Do not invent sources or URLs.',
      ].join('\n\n'),
    );
    expect(ChatCompletionRequestSchema.safeParse(sent).success).toBe(true);
    // The caller's request is not changed (a retry on another channel builds from it again).
    expect(base.messages).toHaveLength(3);
  });

  it('a conversation without instructions gets the sources first', () => {
    const sent = withWebSearchSources({ model: 'm', messages: [{ role: 'user', content: 'q' }] }, completed);
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('a failed search, or one that found nothing, is said so — the model is told not to pretend', () => {
    expect(withWebSearchSources(base, failed).messages[2]?.content).toContain('it failed, so no web results are available');
    expect(withWebSearchSources(base, { ...completed, results: [] }).messages[2]?.content).toContain('found nothing');
  });

  it('long sources are cut, so the message stays within what the reservation adds for it', () => {
    const huge: SearchResult[] = Array.from({ length: 8 }, (_, index) => ({ title: '"'.repeat(5_000), url: `https://example.com/${'a'.repeat(5_000)}${index}`, snippet: '\u0001'.repeat(50_000) }));
    const sent = withWebSearchSources({ model: 'm', messages: [{ role: 'user', content: 'q' }] }, { status: 'completed', query: 'q'.repeat(400), results: huge });
    expect(Buffer.byteLength(JSON.stringify(sent.messages[0]))).toBeLessThan(WEB_SEARCH_SOURCES_MAX_BYTES);
  });
});

describe('the web_search_call item in a bridged Response', () => {
  const completion: ChatCompletion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'upstream',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Sunny ([1](https://weather.example/paris)).' }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 },
  };
  const request = responsesRequest({ input: 'weather in Paris', tools: [{ type: 'web_search' }] });

  it('webSearchCallItem: the search action with its query and each result as a url source; a failed one with none', () => {
    const item = webSearchCallItem('ws_1', completed);
    expect(item).toEqual({
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: {
        type: 'search',
        query: 'weather in Paris',
        queries: ['weather in Paris'],
        sources: [
          { type: 'url', url: 'https://weather.example/paris' },
          { type: 'url', url: 'https://meteo.example/paris' },
        ],
      },
    });
    expectOpenAiValid('WebSearchToolCall', item);
    expect(webSearchCallItem('ws_2', { status: 'failed', query: undefined, reason: 'nothing to search' })).toEqual({
      type: 'web_search_call',
      id: 'ws_2',
      status: 'failed',
      action: { type: 'search', sources: [] },
    });
  });

  it('convertChatToResponse puts it before the message', () => {
    const response = convertChatToResponse({
      completion,
      request,
      responseId: RESPONSE_ID,
      createdAt: CREATED_AT,
      publicModel: PUBLIC_MODEL,
      newId: sequentialIds(),
      hostedCalls: [webSearchCallItem('ws_0', completed)],
    });
    expect(response.output.map((item) => [item.type, item.id, item['status']])).toEqual([
      ['web_search_call', 'ws_0', 'completed'],
      ['message', 'msg_1', 'completed'],
    ]);
    expectOpenAiValid('Response', response);
    expect(ResponseObjectSchema.safeParse(response).success).toBe(true);
  });

  const streamed = (outcome: WebSearchOutcome) => {
    const stream = new ChatToResponsesStream({
      request: { ...request, stream: true },
      responseId: RESPONSE_ID,
      createdAt: CREATED_AT,
      publicModel: PUBLIC_MODEL,
      newId: sequentialIds(),
      hostedCalls: [webSearchCallItem('ws_0', outcome)],
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'u', choices: [{ index: 0, delta, finish_reason: finish }] });
    const steps = [...stream.transform(chunk({ role: 'assistant', content: 'Sunny' })), ...stream.transform(chunk({}, 'stop')), ...stream.finish()];
    return { stream, events: eventsOf(steps) };
  };

  it('streamed: OpenAI’s web search events first (added in progress, in_progress, searching, completed, done), the message at output_index 1', async () => {
    const { events, stream } = streamed(completed);
    expect(events.slice(0, 8).map((event) => [event.type, event.output_index ?? null])).toEqual([
      ['response.created', null],
      ['response.in_progress', null],
      ['response.output_item.added', 0],
      ['response.web_search_call.in_progress', 0],
      ['response.web_search_call.searching', 0],
      ['response.web_search_call.completed', 0],
      ['response.output_item.done', 0],
      ['response.output_item.added', 1],
    ]);
    expect(events[2]?.item).toEqual({ type: 'web_search_call', id: 'ws_0', status: 'in_progress', action: { type: 'search', query: 'weather in Paris', queries: ['weather in Paris'] } });
    expect(events[3]).toEqual({ type: 'response.web_search_call.in_progress', sequence_number: 3, item_id: 'ws_0', output_index: 0 });
    expect(events[6]?.item).toEqual(webSearchCallItem('ws_0', completed));
    const summary = expectValidResponsesStream(events);
    expect(summary.response).toEqual(stream.response);
    expect(summary.response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    const final = await sdkFinalResponse(events);
    expect(final.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(final.output_text).toBe('Sunny');
  });

  it('streamed, the search failed: no completed event, the item done as failed', () => {
    const { events } = streamed(failed);
    expect(events.slice(2, 6).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.output_item.done',
    ]);
    expect(events[5]?.item.status).toBe('failed');
    expect(expectValidResponsesStream(events).response.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed' });
  });
});
