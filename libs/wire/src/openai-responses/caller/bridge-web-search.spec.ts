import { lost } from '../../testing/lost';
import { ChatCompletionRequestSchema, ResponseObjectSchema, type ChatCompletion, type SearchResult } from '@chat-relay/contract';
import { expectOpenAiValid } from '../../gemini/testing/expect-openai-valid';
import {
  webSearchCallItem,
  webSearchQueryOf,
  webSearchRequestOf,
  webSearchResultText,
  withoutWebSearchFunction,
  WEB_SEARCH_SOURCES_MAX_BYTES,
  type WebSearchOutcome,
} from './bridge-web-search';
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
const planOf = (fields: Record<string, unknown>) => bridgeResponses({ tools: [{ type: 'web_search' }], ...fields }).webSearch;

describe('webSearchPlanOf (through convertResponsesToChat)', () => {
  it('offers the search as a function `web_search` after the caller’s; search_context_size low / medium / high → 3 / 5 / 8 results (5 by default)', () => {
    const converted = bridgeResponses({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] });
    expect(converted.webSearch).toEqual({ functionName: 'web_search', maxResults: 5 });
    expect(converted.request.tools?.map((tool) => (tool.type === 'function' ? tool.function.name : tool.type))).toEqual(['f', 'web_search']);
    expect(ChatCompletionRequestSchema.safeParse(converted.request).success).toBe(true);
    for (const [size, count] of [['low', 3], ['medium', 5], ['high', 8]] as const) {
      expect(planOf({ tools: [{ type: 'web_search_preview', search_context_size: size }] })?.maxResults).toBe(count);
    }
  });

  it('a caller function already named web_search keeps its name: the relay’s is numbered (namespaced and custom tools’ names count too)', () => {
    const tools = [{ type: 'function', name: 'web_search' }, { type: 'function', name: 'web_search_2' }, { type: 'web_search' }];
    expect(planOf({ tools })?.functionName).toBe('web_search_3');
    const inner = [{ type: 'namespace', name: 'ns', tools: [{ type: 'function', name: 'web_search' }] }, { type: 'custom', name: 'web_search_2' }, { type: 'web_search' }];
    expect(planOf({ tools: inner })?.functionName).toBe('web_search_3');
  });

  it('external_web_access: false (cache only) offers no search at all; true offers it', () => {
    const converted = bridgeResponses({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search', external_web_access: false }] });
    expect(converted.webSearch).toBeUndefined();
    expect(converted.request.tools).toHaveLength(1);
    expect(converted.nativeOnly).toBeUndefined();
    expect(planOf({ tools: [{ type: 'web_search', external_web_access: true }] })).toBeDefined();
  });

  it('filters.allowed_domains → include_domains, pasted schemes and paths cut off', () => {
    const tools = [{ type: 'web_search', filters: { allowed_domains: ['pubmed.ncbi.nlm.nih.gov', 'https://Www.Example.com/path?q=1'] } }];
    expect(planOf({ tools })?.includeDomains).toEqual(['pubmed.ncbi.nlm.nih.gov', 'www.example.com']);
    expect(planOf({ tools: [{ type: 'web_search', filters: { allowed_domains: [] } }] })).not.toHaveProperty('includeDomains');
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
    expect(webSearch?.maxResults).toBe(5);
    expect(warnings).toEqual([lost('tools[*](web_search)'), lost('tools[0].user_location')]);
  });
});

describe('a call of the search function', () => {
  it('its query: the `query` argument, whitespace collapsed, cut to 400 characters on a word boundary; none when missing or not JSON', () => {
    expect(webSearchQueryOf('{"query":" weather \\n in  Paris? "}')).toBe('weather in Paris?');
    const long = webSearchQueryOf(JSON.stringify({ query: `${'word '.repeat(100)}end` })) ?? '';
    expect(long.length).toBeLessThanOrEqual(400);
    expect(long.endsWith('word')).toBe(true);
    expect(webSearchQueryOf(JSON.stringify({ query: 'x'.repeat(1_000) }))).toHaveLength(400);
    expect(webSearchQueryOf('{}')).toBeUndefined();
    expect(webSearchQueryOf('{"query": 3}')).toBeUndefined();
    expect(webSearchQueryOf('not json')).toBeUndefined();
  });

  it('its search request: the plan’s result count and domains', () => {
    expect(webSearchRequestOf({ functionName: 'web_search', maxResults: 3, includeDomains: ['example.org'] }, 'q')).toEqual({ query: 'q', max_results: 3, include_domains: ['example.org'] });
  });

  it('its result for the model: numbered sources with URL, date and snippet, asking for URL citations', () => {
    expect(webSearchResultText(completed)).toBe(
      [
        'Web search results for "weather in Paris":',
        '[1] Paris weather\nURL: https://weather.example/paris\nPublished: 2025-06-01\nSunny, 24°C.',
        '[2] Météo\nURL: https://meteo.example/paris',
        'Cite each source you use by its URL, e.g. "… ([1](https://…))". Do not invent sources or URLs.',
      ].join('\n\n'),
    );
  });

  it('a failed search, or one that found nothing, is said so', () => {
    expect(webSearchResultText(failed)).toContain('The web search failed');
    expect(webSearchResultText({ ...completed, results: [] })).toContain('found nothing');
  });

  it('long sources are cut, so one result stays within what the reservation adds for it', () => {
    const huge: SearchResult[] = Array.from({ length: 8 }, (_, index) => ({ title: '"'.repeat(5_000), url: `https://example.com/${'a'.repeat(5_000)}${index}`, snippet: '\u0001'.repeat(50_000) }));
    const text = webSearchResultText({ status: 'completed', query: 'q'.repeat(400), results: huge });
    expect(Buffer.byteLength(JSON.stringify({ role: 'tool', tool_call_id: 'call_1', content: text }))).toBeLessThan(WEB_SEARCH_SOURCES_MAX_BYTES);
  });

  it('withoutWebSearchFunction: the function, a choice of it, and a choice or parallel flag left without tools go', () => {
    const plan = { functionName: 'web_search', maxResults: 5 };
    const alone = bridgeResponses({ tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' }, parallel_tool_calls: true }).request;
    expect(Object.keys(withoutWebSearchFunction(alone, plan))).toEqual(['model', 'messages']);
    const beside = bridgeResponses({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }], tool_choice: 'required' }).request;
    expect(withoutWebSearchFunction(beside, plan)).toMatchObject({ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' });
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

  it('convertChatToResponse puts the earlier items (the search) before the message', () => {
    const response = convertChatToResponse({
      completion,
      request,
      responseId: RESPONSE_ID,
      createdAt: CREATED_AT,
      publicModel: PUBLIC_MODEL,
      newId: sequentialIds(),
      leadingItems: [webSearchCallItem('ws_0', completed)],
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
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'u', choices: [{ index: 0, delta, finish_reason: finish }] });
    // The search runs between two model calls: shown as it starts, and as it ends.
    const steps = [
      ...stream.hostedSearch(webSearchCallItem('ws_0', { status: 'in_progress', query: outcome.query })),
      ...stream.hostedSearch(webSearchCallItem('ws_0', outcome)),
      ...stream.transform(chunk({ role: 'assistant', content: 'Sunny' })),
      ...stream.transform(chunk({}, 'stop')),
      ...stream.finish(),
    ];
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
