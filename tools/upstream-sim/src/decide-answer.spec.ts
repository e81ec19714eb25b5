import {
  ChatCompletionChunkSchema,
  ChatCompletionSchema,
  type ChatCompletionRequest,
  type Message,
} from '@chat-relay/contract';
import { buildChatChunks, buildChatCompletion } from './build-chat-completion';
import { asFunctionCall, decideAnswer, type AnswerPlan } from './decide-answer';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const timeTool = { type: 'function' as const, function: { name: 'get_time' } };

function ask(messages: Message[], extra: Partial<ChatCompletionRequest> = {}): AnswerPlan {
  return decideAnswer({ model: 'gpt-4o', messages, ...extra });
}

function textOf(plan: AnswerPlan): string {
  if (plan.kind !== 'text') throw new Error(`expected text, got ${plan.kind}`);
  return plan.content;
}

describe('decideAnswer', () => {
  it('echoes the last user text, content parts joined, and counts usage', () => {
    const plan = ask([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'there' }] },
    ]);
    expect(plan).toMatchObject({ kind: 'text', content: 'You said: Hello there', finishReason: 'stop' });
    if (plan.kind !== 'text') return;
    expect(plan.usage.completion_tokens).toBe(4);
    expect(plan.usage.prompt_tokens).toBeGreaterThan(0);
    expect(plan.usage.total_tokens).toBe(plan.usage.prompt_tokens + 4);
  });

  it('leaves [sim:…] markers out of the echo', () => {
    expect(textOf(ask([{ role: 'user', content: 'ping [sim:latency=5] pong' }]))).toBe('You said: ping pong');
  });

  it('truncates to max_tokens (or max_completion_tokens) with finish_reason length', () => {
    const messages: Message[] = [{ role: 'user', content: 'one two three four five' }];
    expect(ask(messages, { max_tokens: 3 })).toMatchObject({
      content: 'You said: one',
      finishReason: 'length',
      usage: { completion_tokens: 3 },
    });
    expect(ask(messages, { max_completion_tokens: 4 })).toMatchObject({ content: 'You said: one two' });
    expect(ask(messages, { max_tokens: 50 })).toMatchObject({ finishReason: 'stop' });
  });

  it('calls tools after a user message, with unique deterministic call ids', () => {
    const messages: Message[] = [{ role: 'user', content: 'get weather and get time' }];
    const plan = ask(messages, { tools: [weatherTool, timeTool] });
    if (plan.kind !== 'tool_calls') throw new Error(plan.kind);
    const calls = plan.toolCalls.map(asFunctionCall);
    expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_time']);
    expect(calls.map((call) => call.function.arguments)).toEqual(['{"city":"city value"}', '{}']);
    const ids = plan.toolCalls.map((call) => call.id);
    expect(ids.every((id) => /^call_[0-9a-f]{24}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    expect(ask(messages, { tools: [weatherTool, timeTool] })).toEqual(plan);
  });

  it('calls a custom tool with freeform input: a minimal patch for an apply_patch grammar (Codex, issue 29)', () => {
    const messages: Message[] = [{ role: 'user', content: 'apply the patch' }];
    const applyPatch = { type: 'custom' as const, custom: { name: 'apply_patch', format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'begin_patch: "*** Begin Patch" LF' } } } };
    const plan = ask(messages, { tools: [weatherTool, applyPatch] });
    if (plan.kind !== 'tool_calls') throw new Error(plan.kind);
    expect(plan.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n' } }]);
    expect(asFunctionCall(plan.toolCalls[0]!).function).toEqual({ name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n' }) });
    // The same tool as the relay offers it to Anthropic and Gemini: a function of one string whose description holds the grammar.
    const asFunction = { type: 'function' as const, function: { name: 'apply_patch', parameters: { type: 'object', properties: { input: { type: 'string', description: 'matching: "*** Begin Patch" LF' } }, required: ['input'] } } };
    const viaFunction = ask(messages, { tools: [asFunction] });
    if (viaFunction.kind !== 'tool_calls') throw new Error(viaFunction.kind);
    expect(asFunctionCall(viaFunction.toolCalls[0]!).function.arguments).toBe(JSON.stringify({ input: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n' }));
    // Codex's exec runs JavaScript: a line whose text(…) is the output, as a custom tool or as its function.
    const exec = { type: 'custom' as const, custom: { name: 'exec', description: 'Run JavaScript code to orchestrate tool calls' } };
    const script = ask([{ role: 'user', content: 'exec it' }], { tools: [exec] });
    expect(script.kind === 'tool_calls' ? script.toolCalls[0] : undefined).toMatchObject({ type: 'custom', custom: { name: 'exec', input: 'text("hi");' } });
    const execFunction = { type: 'function' as const, function: { name: 'exec', description: exec.custom.description, parameters: { type: 'object', properties: { input: { type: 'string' } } } } };
    const scriptCall = ask([{ role: 'user', content: 'exec it' }], { tools: [execFunction] });
    expect(scriptCall.kind === 'tool_calls' ? asFunctionCall(scriptCall.toolCalls[0]!).function.arguments : '').toBe('{"input":"text(\\"hi\\");"}');
    expect(plan.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('answers in text naming each tool and including its result after tool messages', () => {
    const plan = ask(
      [
        { role: 'user', content: 'weather and time?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'sunny, 21 C' },
        { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: '10:42' }] },
      ],
      { tools: [weatherTool, timeTool] },
    );
    expect(textOf(plan)).toBe('Here is what I found: get_weather: sunny, 21 C; get_time: 10:42.');
  });

  it('answers the tool results when a user message only follows them (Claude Code sends reminders beside its tool results)', () => {
    const call = { id: 'call_a', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } };
    const plan = ask(
      [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
        { role: 'user', content: '<system-reminder>nothing to call a tool for</system-reminder>' },
      ],
      { tools: [weatherTool, timeTool] },
    );
    expect(textOf(plan)).toBe('Here is what I found: get_weather: sunny.');
  });

  it('reads the last turn past system messages sent after it (Claude Code 2.1 sends its environment so)', () => {
    const plan = ask(
      [
        { role: 'user', content: 'get the weather please' },
        { role: 'system', content: '# Environment' },
      ],
      { tools: [timeTool, weatherTool] },
    );
    expect(plan).toMatchObject({ kind: 'tool_calls', toolCalls: [{ function: { name: 'get_weather' } }] });
  });

  it('answers in text when tool_choice is none', () => {
    const plan = ask([{ role: 'user', content: 'get weather' }], { tools: [weatherTool], tool_choice: 'none' });
    expect(textOf(plan)).toBe('You said: get weather');
  });

  it('reports an unknown named tool as invalid', () => {
    const plan = ask([{ role: 'user', content: 'hi' }], {
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'missing' } },
    });
    expect(plan).toMatchObject({ kind: 'invalid', param: 'tool_choice' });
  });
});

describe('buildChatCompletion / buildChatChunks', () => {
  const meta = { id: 'chatcmpl-simtest', created: 1_700_000_000, model: 'gpt-4o' };

  it('builds contract-valid completions and chunks whose text joins back to the answer', () => {
    const plan = ask([{ role: 'user', content: 'Hello world' }]);
    if (plan.kind === 'invalid') throw new Error('invalid');
    expect(ChatCompletionSchema.safeParse(buildChatCompletion(plan, meta)).success).toBe(true);
    const chunks = buildChatChunks(plan, meta, false);
    chunks.forEach((chunk) => expect(ChatCompletionChunkSchema.safeParse(chunk).success).toBe(true));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('You said: Hello world');
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('splits tool-call arguments into fragments of at most 8 characters', () => {
    const plan = ask([{ role: 'user', content: 'get weather' }], { tools: [weatherTool] });
    if (plan.kind !== 'tool_calls') throw new Error(plan.kind);
    const chunks = buildChatChunks(plan, meta, true);
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toMatchObject({ index: 0, id: plan.toolCalls[0]?.id, function: { arguments: '' } });
    const pieces = fragments.slice(1).map((fragment) => fragment.function?.arguments ?? '');
    expect(pieces.every((piece) => piece.length > 0 && piece.length <= 8)).toBe(true);
    expect(pieces.join('')).toBe('{"city":"city value"}');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: plan.usage });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });
});

describe('decideAnswer: a search function (the relay’s bridged web search)', () => {
  const searchTool = {
    type: 'function' as const,
    function: { name: 'web_search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  };
  const callsOf = (plan: AnswerPlan) => (plan.kind === 'tool_calls' ? plan.toolCalls.map((call) => call.function) : []);
  const searched = (user: string): Message[] => [
    { role: 'user', content: user },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'web_search', arguments: '{"query":"x"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'Web search results …' },
  ];

  it('asked to search the web, calls it with the user’s words as the query', () => {
    const plan = ask([{ role: 'user', content: 'search the web for rust 1.80' }], { tools: [weatherTool, searchTool] });
    expect(callsOf(plan)).toEqual([{ name: 'web_search', arguments: JSON.stringify({ query: 'search the web for rust 1.80' }) }]);
  });

  it('given the results, answers from them — unless asked to keep searching (and tool_choice allows it)', () => {
    expect(textOf(ask(searched('search the web for rust'), { tools: [searchTool] }))).toContain('web_search: Web search results');
    expect(callsOf(ask(searched('search the web, keep searching'), { tools: [searchTool] }))).toEqual([{ name: 'web_search', arguments: JSON.stringify({ query: 'search the web, keep searching' }) }]);
    expect(ask(searched('search the web, keep searching'), { tools: [searchTool], tool_choice: 'none' }).kind).toBe('text');
  });
});
