import { refusedParameter } from './refused-parameter';

const openAi = (message: string, param: string | null = null, code: string | null = null) =>
  JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } });
const anthropic = (message: string) => JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } });
const gemini = (message: string) => JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

describe('refusedParameter: the field an upstream refuses by name, in its own words', () => {
  it.each([
    ['Unrecognized request argument supplied: top_k', { field: 'top_k' }],
    ['Unrecognized request argument supplied: reasoning_effort', { field: 'reasoning_effort' }],
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", { field: 'max_tokens' }],
    ["Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", { field: 'temperature' }],
    ["Unsupported parameter: 'top_p' is not supported with this model.", { field: 'top_p' }],
    ["Unknown parameter: 'top_k'.", { field: 'top_k' }],
    [
      'max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.',
      { field: 'max_tokens', atMost: 16384 },
    ],
  ])('OpenAI: %s', (message, expected) => {
    expect(refusedParameter('openai', 400, openAi(message))).toEqual(expected);
  });

  it.each([
    ['`temperature` and `top_p` cannot both be specified for this model. Please use only one.', { field: 'top_p' }],
    ['max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929', { field: 'max_tokens', atMost: 64000 }],
    ['top_k: Extra inputs are not permitted', { field: 'top_k' }],
  ])('Anthropic: %s', (message, expected) => {
    expect(refusedParameter('anthropic', 400, anthropic(message))).toEqual(expected);
  });

  it.each([
    [`Invalid JSON payload received. Unknown name "topK" at 'generation_config': Cannot find field.`, { field: 'top_k' }],
    [`Invalid JSON payload received. Unknown name "thinkingConfig" at 'generation_config': Cannot find field.`, { field: 'reasoning_effort' }],
    ['Budget 0 is invalid. This model only works in thinking mode.', { field: 'reasoning_effort' }],
    ['Thinking is not enabled for models/gemini-2.0-flash', { field: 'reasoning_effort' }],
    [
      'Unable to submit request because it has a maxOutputTokens value of 70000 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.',
      { field: 'max_tokens', atMost: 65536 },
    ],
  ])('Gemini: %s', (message, expected) => {
    expect(refusedParameter('gemini', 400, gemini(message))).toEqual(expected);
  });

  it('names nothing for other failures: another status, another text, a message that only mentions a field', () => {
    expect(refusedParameter('openai', 429, openAi('Unrecognized request argument supplied: top_k'))).toBeUndefined();
    expect(refusedParameter('openai', 400, openAi("Invalid value for 'messages'"))).toBeUndefined();
    expect(refusedParameter('openai', 400, 'not json')).toBeUndefined();
    expect(refusedParameter('anthropic', 400, anthropic('messages.3.content.0.tool_use.text: Extra inputs are not permitted'))).toBeUndefined();
    expect(refusedParameter('gemini', 400, gemini(`Invalid JSON payload received. Unknown name "const" at 'tools[0].function_declarations[5]': Cannot find field.`))).toBeUndefined();
  });
});
