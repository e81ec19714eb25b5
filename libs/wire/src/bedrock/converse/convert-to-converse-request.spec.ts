import type { ChatCompletionRequest } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertToConverseRequest } from './convert-to-converse-request';

// Shapes from https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
const LLAMA = 'us.meta.llama3-3-70b-instruct-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
const NOVA2 = 'global.amazon.nova-2-lite-v1:0';
const PNG = 'iVBORw0KGgo=';

const convert = (request: Partial<ChatCompletionRequest>, model = LLAMA) =>
  convertToConverseRequest({ model: 'public', messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatCompletionRequest, model);

function refusal(request: Partial<ChatCompletionRequest>, model = LLAMA): RelayError {
  try {
    convert(request, model);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const weatherSpec = {
  toolSpec: { name: 'get_weather', description: 'Weather of a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
};

describe('convertToConverseRequest: exact Converse bodies', () => {
  it('text with system and developer messages lifted to system, inference config from the sampling fields', () => {
    const { request, warnings } = convert({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: 'Answer in French.' },
      ],
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      stop: 'END',
      user: 'u-1',
      stream_options: { include_usage: true },
    });
    expect(request).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      system: [{ text: 'Be brief.' }, { text: 'Answer in French.' }],
      inferenceConfig: { maxTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
    });
    expect(warnings).toEqual([]);
  });

  it('an image as a data: URL becomes an inline image block with its format; a PDF a document', () => {
    const { request } = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
            { type: 'file', file: { filename: 'report_2025.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { text: 'What is this?' },
          { image: { format: 'png', source: { bytes: PNG } } },
          { document: { format: 'pdf', name: 'report 2025', source: { bytes: 'JVBERi0=' } } },
        ],
      },
    ]);
  });

  it('an http image URL is refused naming the parameter (Converse takes bytes only)', () => {
    const error = refusal({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages[0].content[0].image_url.url');
  });

  it('tools and tool_choice: toolSpec with the schema as inputSchema.json; required → any, a named function → tool', () => {
    expect(convert({ tools: [weather], tool_choice: 'required' }).request.toolConfig).toEqual({ tools: [weatherSpec], toolChoice: { any: {} } });
    expect(convert({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } }).request.toolConfig).toEqual({
      tools: [weatherSpec],
      toolChoice: { tool: { name: 'get_weather' } },
    });
    // auto is Converse's default and the only choice Llama takes: not written.
    expect(convert({ tools: [weather], tool_choice: 'auto' }).request.toolConfig).toEqual({ tools: [weatherSpec] });
  });

  it('tool_choice none leaves the tools out, and says so', () => {
    const { request, warnings } = convert({ tools: [weather], tool_choice: 'none' });
    expect(request.toolConfig).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'tools' })]);
  });

  it('tool_choice none with tool calls in the conversation keeps the tools (Converse needs them) as auto, and says so', () => {
    const { request, warnings } = convert({
      tools: [weather],
      tool_choice: 'none',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(request.toolConfig).toEqual({ tools: [weatherSpec] });
    expect(warnings).toEqual([expect.objectContaining({ kind: 'mapped', field: 'tool_choice', from: 'none', to: 'auto' })]);
  });

  it('tool calls and results: toolUse in the assistant turn, toolResult (json for an object, text otherwise) in one user turn, results first', () => {
    const { request } = convert({
      tools: [weather],
      messages: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'llm:2', type: 'function', function: { name: 'get_weather', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' },
        { role: 'tool', tool_call_id: 'llm:2', content: 'rain' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    const secondId = request.messages[1]?.content[2];
    expect(secondId).toEqual({ toolUse: { toolUseId: expect.stringMatching(/^llm_2_[0-9a-f]{12}$/), name: 'get_weather', input: {} } });
    const rewritten = (secondId as { toolUse: { toolUseId: string } }).toolUse.toolUseId;
    expect(request.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather in Paris and Oslo?' }] },
      {
        role: 'assistant',
        content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } }, secondId],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_1', content: [{ json: { sky: 'sunny' } }] } },
          { toolResult: { toolUseId: rewritten, content: [{ text: 'rain' }] } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('consecutive messages of one role are merged (Converse requires alternation); blank text is left out', () => {
    const { request } = convert({
      messages: [
        { role: 'user', content: 'One' },
        { role: 'user', content: [{ type: 'text', text: '  ' }, { type: 'text', text: 'Two' }] },
        { role: 'assistant', content: 'A' },
        { role: 'assistant', content: 'B' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'assistant', content: [{ text: 'A' }, { text: 'B' }] },
    ]);
  });

  it('an assistant turn sends its signed thinking back as reasoningContent, first', () => {
    const { request, warnings } = convert({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: 'Hello',
          reasoning_content: 'Greet back.',
          thinking_blocks: [
            { type: 'thinking', thinking: 'Greet back.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'b3BhcXVl' },
          ],
        } as never,
        { role: 'user', content: 'Again' },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Greet back.', signature: 'sig-1' } } },
        { reasoningContent: { redactedContent: 'b3BhcXVl' } },
        { text: 'Hello' },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('reasoning_content without signed blocks is not sent back, and says so', () => {
    const { request, warnings } = convert({
      messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello', reasoning_content: 'Greet.' } as never, { role: 'user', content: 'Again' }],
    });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ text: 'Hello' }] });
    expect(warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'messages[1].reasoning_content' })]);
  });
});

describe('convertToConverseRequest: parameters Converse has no field for', () => {
  it('top_k goes in additionalModelRequestFields as the family documents it (Nova: inferenceConfig.topK)', () => {
    expect(convert({ top_k: 40 } as never, NOVA).request.additionalModelRequestFields).toEqual({ inferenceConfig: { topK: 40 } });
    expect(convert({ top_k: 40 } as never, 'mistral.mixtral-8x7b-instruct-v0:1').request.additionalModelRequestFields).toEqual({ top_k: 40 });
    expect(convert({ top_k: 40 } as never, 'cohere.command-r-plus-v1:0').request.additionalModelRequestFields).toEqual({ k: 40 });
  });

  it('top_k on a family without one (Llama) is a 400 naming it', () => {
    expect(refusal({ top_k: 40 } as never)).toMatchObject({ status: 400, param: 'top_k' });
  });

  it("reasoning_effort on Nova 2 → reasoningConfig; minimal goes as low with an adjustment; elsewhere a 400", () => {
    expect(convert({ reasoning_effort: 'medium' }, NOVA2).request.additionalModelRequestFields).toEqual({
      reasoningConfig: { type: 'enabled', maxReasoningEffort: 'medium' },
    });
    const minimal = convert({ reasoning_effort: 'minimal' }, NOVA2);
    expect(minimal.request.additionalModelRequestFields).toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' } });
    expect(minimal.warnings).toEqual([expect.objectContaining({ kind: 'mapped', field: 'reasoning_effort', from: 'minimal', to: 'low' })]);
    expect(convert({ reasoning_effort: 'none' }, NOVA2).request.additionalModelRequestFields).toBeUndefined();
    expect(refusal({ reasoning_effort: 'high' }, 'us.deepseek.r1-v1:0')).toMatchObject({ status: 400, param: 'reasoning_effort' });
  });

  it.each([
    ['seed', { seed: 7 }],
    ['n', { n: 2 }],
    ['response_format', { response_format: { type: 'json_object' } }],
    ['frequency_penalty', { frequency_penalty: 0.5 }],
    ['logprobs', { logprobs: true }],
    ['functions', { functions: [{ name: 'f' }] }],
    ['unknown_field', { unknown_field: 1 }],
  ])('%s is refused by name, never dropped', (param, fields) => {
    expect(refusal(fields as Partial<ChatCompletionRequest>)).toMatchObject({ status: 400, param });
  });

  it('values that ask for nothing are accepted: n 1, response_format text, empty logit_bias', () => {
    expect(() => convert({ n: 1, response_format: { type: 'text' }, logit_bias: {} })).not.toThrow();
  });
});
