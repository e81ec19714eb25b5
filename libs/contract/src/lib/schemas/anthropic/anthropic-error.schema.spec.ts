import { AnthropicErrorResponseSchema } from './anthropic-error.schema';

describe('AnthropicErrorResponseSchema', () => {
  it('accepts an error type it does not list (Anthropic says the list grows) and keeps details', () => {
    const error = { type: 'memory_path_conflict_error', message: 'Conflict', details: { error_code: 'x' } };
    const body = { type: 'error', error, request_id: 'req_1' };
    expect(AnthropicErrorResponseSchema.parse(body)).toEqual(body);
  });

  it('accepts a body without request_id, or with null', () => {
    for (const body of [
      { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
      { type: 'error', error: { type: 'api_error', message: 'Internal server error' }, request_id: null },
    ]) {
      expect(AnthropicErrorResponseSchema.parse(body)).toEqual(body);
    }
  });

  it('refuses the OpenAI error shape, which an Anthropic client cannot read', () => {
    const openAi = { error: { message: 'Bad', type: 'invalid_request_error', param: null, code: null } };
    expect(AnthropicErrorResponseSchema.safeParse(openAi).error?.issues.map((issue) => issue.path)).toEqual([['type']]);
  });
});
