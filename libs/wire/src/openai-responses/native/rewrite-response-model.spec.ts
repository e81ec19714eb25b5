import { rewriteResponseModel } from './rewrite-response-model';
import { readResponsesCassette } from '../testing/responses-fixtures';

describe('rewriteResponseModel', () => {
  // Pretty-printed as OpenAI sent it (gzip in the cassette): the bytes a retrieve answers with.
  const [retrieved] = readResponsesCassette('cassette-reasoning-encrypted-roundtrip.yaml');
  const text = retrieved!.responseText;
  const upstreamModel = (JSON.parse(text) as { model: string }).model;

  it('swaps the model in the upstream bytes, every other byte kept', () => {
    const rewritten = rewriteResponseModel(text, 'my-model');
    expect(rewritten).not.toBe(text);
    expect(rewritten.replace('"my-model"', JSON.stringify(upstreamModel))).toBe(text);
    expect(JSON.parse(rewritten)).toEqual({ ...(JSON.parse(text) as object), model: 'my-model' });
  });

  it('returns the text as it came when the model is already the public name', () => {
    expect(rewriteResponseModel(text, upstreamModel)).toBe(text);
  });

  it('re-serialises when the model is not a string', () => {
    expect(JSON.parse(rewriteResponseModel('{"id":"resp_1","model":null}', 'my-model'))).toEqual({ id: 'resp_1', model: 'my-model' });
  });

  it.each([
    ['a deletion, which names no model', '{"id":"resp_1","object":"response","deleted":true}'],
    ['a body that is not JSON', '<html>502 Bad Gateway</html>'],
    ['a JSON array', '[{"model":"gpt-5"}]'],
  ])('leaves %s as it came', (_case, body) => {
    expect(rewriteResponseModel(body, 'my-model')).toBe(body);
  });
});
