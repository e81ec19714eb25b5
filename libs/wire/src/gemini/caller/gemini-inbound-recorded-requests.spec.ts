import { ChatCompletionRequestSchema, GeminiGenerateContentRequestSchema, type Message } from '@chat-relay/contract';
import { convertGenerateContentToChat } from './convert-generate-content-to-chat';
import { readGeminiCassette } from '../testing/gemini-fixtures';
import { readFixture } from '../../testing/fixtures';

/** Every request body a real Gemini client (pydantic-ai on google-genai) sent, recorded. */
const recorded = [
  'cassette-finish-max-tokens.yaml',
  'cassette-finish-safety.yaml',
  'cassette-parallel-function-calls.yaml',
  'cassette-stream-thought-signature.yaml',
  'cassette-stream-tool-roundtrip.yaml',
  'cassette-tool-config-any.yaml',
].flatMap((name) => readGeminiCassette(name).map((interaction, index) => ({ name: `${name} #${index}`, ...interaction })));

const toolIds = (messages: readonly Message[]) => ({
  calls: messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [])),
  results: messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
});

describe('recorded Gemini requests, inbound', () => {
  it.each(recorded)('$name parses (proto names and all) and bridges to a valid hub request, every result answering a call', ({ uri, requestBody }) => {
    const body = GeminiGenerateContentRequestSchema.parse(requestBody);
    const converted = convertGenerateContentToChat({ body, model: 'gemini-x', stream: uri.includes(':streamGenerateContent') });
    expect(converted.nativeOnly).toBeUndefined();
    expect(ChatCompletionRequestSchema.safeParse(converted.request).success).toBe(true);
    const { calls, results } = toolIds(converted.request.messages);
    expect(calls.sort()).toEqual([...results].sort());
  });

  it('the python SDK’s parameters_json_schema (snake_case beside camelCase) becomes the function’s parameters', () => {
    const [first] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    const body = GeminiGenerateContentRequestSchema.parse(first?.requestBody);
    const { request } = convertGenerateContentToChat({ body, model: 'gemini-x', stream: true });
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'get_country', description: '', parameters: { additionalProperties: false, properties: {}, type: 'object' } } },
    ]);
  });

  it('a recorded ANY with two allowed names → allowed_tools required; the function response round trip keeps the recorded ids', () => {
    const [, second] = readGeminiCassette('cassette-tool-config-any.yaml');
    const body = GeminiGenerateContentRequestSchema.parse(second?.requestBody);
    const { request } = convertGenerateContentToChat({ body, model: 'gemini-x', stream: false });
    expect(request.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'bar' } }, { type: 'function', function: { name: 'final_result' } }] },
    });
    expect(request.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'pyd_ai_e3268c26ec6340bf82ce92c8342ddad2', type: 'function', function: { name: 'bar', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'pyd_ai_e3268c26ec6340bf82ce92c8342ddad2', content: '{"return_value":"hello"}' },
    ]);
  });

  it.each(['gemini-cli-0.61.0-request.json', 'gemini-cli-0.61.0-router-request.json', 'gemini-cli-0.61.0-tool-result-request.json', 'gemini-cli-0.61.0-yolo-request.json'])(
    'Gemini CLI 0.61.0 (%s, recorded from the real CLI) bridges to a valid hub request whose schemas are JSON Schema',
    (name) => {
      const recordedRequest = JSON.parse(readFixture(`gemini-inbound/${name}`)) as { path: string; body: unknown };
      const body = GeminiGenerateContentRequestSchema.parse(recordedRequest.body);
      const converted = convertGenerateContentToChat({ body, model: 'gemini-x', stream: recordedRequest.path.includes(':streamGenerateContent') });
      expect(converted.nativeOnly).toBeUndefined();
      expect(ChatCompletionRequestSchema.safeParse(converted.request).success).toBe(true);
      // Its router's classifier schema says "OBJECT" and "STRING", as Google takes them: OpenAI and Anthropic need JSON Schema's names.
      const schemas = JSON.stringify([converted.request.response_format ?? null, converted.request.tools ?? []]);
      expect(schemas).not.toMatch(/"type":"[A-Z]+"/);
    },
  );
});
