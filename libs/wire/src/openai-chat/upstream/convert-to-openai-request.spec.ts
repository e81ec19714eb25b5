import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { openAiRequestBody } from './convert-to-openai-request';

/** A body as the route sees it: the bytes received and the contract's parse of them. */
function received(text: string) {
  return { raw: Buffer.from(text), request: ChatCompletionRequestSchema.parse(JSON.parse(text)) };
}

const json = (body: string | Buffer): unknown => JSON.parse(body.toString());

// Unusual spacing, a `1.0` and unknown fields at both levels: re-serialising would change the bytes.
const BASE =
  '{ "model": "gpt-4o",  "messages": [{"role":"user","content":"h\\u00e9","x_part":{"deep":[1,"2",null]}}],' +
  ' "temperature": 1.0, "x_vendor": {"a": true}';
const USER = [{ role: 'user', content: 'hé', x_part: { deep: [1, '2', null] } }];

describe('openAiRequestBody', () => {
  it.each([
    ['no stream field', `${BASE} }`],
    ['stream false', `${BASE}, "stream": false }`],
    ['stream null', `${BASE}, "stream": null }`],
    ['stream asking for usage', `${BASE}, "stream": true, "stream_options": {"include_usage": true, "x_opt": 1} }`],
  ])('forwards the very same Buffer for %s', (_case, text) => {
    const { raw, request } = received(text);
    expect(openAiRequestBody(request, 'gpt-4o', raw)).toBe(raw);
  });

  it.each([
    ['nothing', ''],
    ['a newline', '\n'],
    ['mixed whitespace', ' \r\n\t \n'],
  ])('appends stream_options to a stream without them, with %s after the closing brace', (_case, trailing) => {
    const text = `${BASE}, "stream": true }${trailing}`;
    const { raw, request } = received(text);
    const body = openAiRequestBody(request, 'gpt-4o', raw);
    const brace = text.lastIndexOf('}');
    expect(body.toString()).toBe(`${text.slice(0, brace)},"stream_options":{"include_usage":true}${text.slice(brace)}`);
    expect(json(body)).toEqual({ ...(JSON.parse(text) as object), stream_options: { include_usage: true } });
  });

  it('keeps unknown fields, top-level and nested, byte for byte on the fast paths', () => {
    for (const text of [`${BASE} }`, `${BASE}, "stream": true }`]) {
      const { raw, request } = received(text);
      const body = openAiRequestBody(request, 'gpt-4o', raw).toString();
      expect(body).toContain('"x_part":{"deep":[1,"2",null]}');
      expect(body).toContain('"x_vendor": {"a": true}');
      expect(body).toContain('"temperature": 1.0');
      expect(json(body)).toMatchObject({ messages: USER, x_vendor: { a: true } });
    }
  });

  it('serialises with the upstream model when the channel maps the name, unknown fields kept', () => {
    const { raw, request } = received(`${BASE}, "stream": true, "stream_options": {"include_usage": true} }`);
    const body = openAiRequestBody(request, 'upstream-4o', raw);
    expect(typeof body).toBe('string');
    expect(json(body)).toEqual({
      model: 'upstream-4o',
      messages: USER,
      temperature: 1,
      x_vendor: { a: true },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('serialises when there are no raw bytes (the body came through the fallback parser or an assistant)', () => {
    const { request } = received(`${BASE} }`);
    const body = openAiRequestBody(request, 'gpt-4o', undefined);
    expect(typeof body).toBe('string');
    expect(json(body)).toEqual({ model: 'gpt-4o', messages: USER, temperature: 1, x_vendor: { a: true } });

    const streamed = received(`${BASE}, "stream": true }`).request;
    expect(json(openAiRequestBody(streamed, 'gpt-4o', undefined))).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it.each([
    ['include_usage false', '{"include_usage": false, "include_obfuscation": false, "x_opt": "kept"}', { include_obfuscation: false, x_opt: 'kept' }],
    ['include_usage absent', '{"include_obfuscation": true}', { include_obfuscation: true }],
    ['null stream_options', 'null', {}],
  ])('serialises a stream with %s, asking for usage and keeping the other options', (_case, options, kept) => {
    const { raw, request } = received(`${BASE}, "stream": true, "stream_options": ${options} }`);
    const body = openAiRequestBody(request, 'gpt-4o', raw);
    expect(typeof body).toBe('string');
    expect(json(body)).toEqual({
      model: 'gpt-4o',
      messages: USER,
      temperature: 1,
      x_vendor: { a: true },
      stream: true,
      stream_options: { ...kept, include_usage: true },
    });
  });

  it('does not touch the request object it is given', () => {
    const { raw, request } = received(`${BASE}, "stream": true, "stream_options": {"include_usage": false} }`);
    const before = structuredClone(request);
    openAiRequestBody(request, 'other', raw);
    expect(request).toEqual(before);
  });
});
