import { buildGeminiCountTokensRequest } from './gemini-count-tokens-request';

const channel = { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/', keys: ['AIza-key'] } as Parameters<typeof buildGeminiCountTokensRequest>[0]['channel'];
const contents = [{ role: 'user', parts: [{ text: 'Hello' }] }];

describe('buildGeminiCountTokensRequest', () => {
  it('posts {model}:countTokens with the key in x-goog-api-key, the caller’s bytes as they came', () => {
    const rawBody = Buffer.from(JSON.stringify({ contents }));
    const request = buildGeminiCountTokensRequest({ channel, key: 'AIza-key', body: { contents }, rawBody, upstreamModel: 'models/gemini-2.5-flash', headers: {}, stream: false });
    expect(request.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens');
    expect(request.headers).toEqual({ 'x-goog-api-key': 'AIza-key', 'content-type': 'application/json' });
    expect(request.body).toBe(rawBody);
  });

  it('names the upstream model in a generateContentRequest, whatever the caller wrote there (Google requires it)', () => {
    const body = { generateContentRequest: { model: 'models/my-alias', contents, systemInstruction: { parts: [{ text: 'Be brief' }] } } };
    const request = buildGeminiCountTokensRequest({ channel, key: 'k', body, rawBody: Buffer.from(JSON.stringify(body)), upstreamModel: 'gemini-2.5-pro', headers: {}, stream: false });
    expect(JSON.parse(String(request.body))).toEqual({ generateContentRequest: { ...body.generateContentRequest, model: 'models/gemini-2.5-pro' } });
  });
});
