import { isResponsesEndpointMissing } from './is-responses-endpoint-missing';

describe('isResponsesEndpointMissing', () => {
  const openAiError = (code: unknown, message = 'x') => JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });

  it.each([
    ['OpenAI, an unknown path', 404, openAiError(null, 'Invalid URL (POST /v1/responses)'), true],
    ['FastAPI (vLLM without the endpoint)', 404, '{"detail":"Not Found"}', true],
    ['plain text', 404, '404 page not found', true],
    ['an empty body', 404, '', true],
    ['an error given as a string', 404, '{"error":"not found"}', true],
    ['an error without a code', 404, JSON.stringify({ error: { message: 'Not found' } }), true],
    ['method not allowed', 405, '{"detail":"Method Not Allowed"}', true],
    ['method not allowed, an OpenAI error with a code', 405, openAiError('method_not_allowed'), true],
    ['an unknown model', 404, openAiError('model_not_found', 'The model `gpt-9` does not exist'), false],
    ['an unknown previous_response_id', 404, openAiError('previous_response_not_found', "Previous response with id 'resp_x' not found."), false],
    ['vLLM, an unknown model (numeric code)', 404, JSON.stringify({ error: { message: 'The model `x` does not exist.', type: 'NotFoundError', param: 'model', code: 404 } }), false],
    ['a 400', 400, '{"detail":"Not Found"}', false],
    ['a 500', 500, 'Not Found', false],
  ])('%s (%d) → %s', (_case, status, text, missing) => {
    expect(isResponsesEndpointMissing(status, text)).toBe(missing);
  });
});
