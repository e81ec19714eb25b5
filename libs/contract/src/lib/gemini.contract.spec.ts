import type { z } from 'zod';
import type { RouteMetadata } from './common-responses';
import { relayContract } from './contract';
import { GeminiGenerateContentRequestSchema, parseGeminiTarget } from './schemas/gemini/gemini-generate-content-request.schema';
import { GeminiErrorResponseSchema } from './schemas/gemini/gemini-error.schema';

const { generateContent } = relayContract.gemini;

describe('relayContract.gemini', () => {
  it('is one token-authenticated Gemini-dialect route with a usage row, the model and method in its last segment', () => {
    expect(generateContent.path).toBe('/v1beta/models/:target');
    expect(generateContent.method).toBe('POST');
    expect(generateContent.metadata as RouteMetadata).toEqual({ auth: 'token', streaming: true, dialect: 'gemini', geminiMethods: ['generateContent', 'streamGenerateContent'] });
  });

  it('shares the path with countTokens, embedContent and batchEmbedContents, each route taking its own methods only', () => {
    const { countTokens, embedContent, batchEmbedContents } = relayContract.gemini;
    for (const [route, method] of [[countTokens, 'countTokens'], [embedContent, 'embedContent'], [batchEmbedContents, 'batchEmbedContents']] as const) {
      expect(route.path).toBe(generateContent.path);
      expect((route.metadata as RouteMetadata).geminiMethods).toEqual([method]);
      const params = route.pathParams as z.ZodTypeAny;
      expect(params.safeParse({ target: `gemini-2.5-flash:${method}` }).success).toBe(true);
      expect(params.safeParse({ target: 'gemini-2.5-flash:generateContent' }).success).toBe(false);
    }
    expect((embedContent.metadata as RouteMetadata).endpoint).toBe('embeddings');
  });

  it.each([400, 401, 403, 404, 409, 413, 429, 500, 502, 503, 504] as const)('answers %i in Google’s error shape, not OpenAI’s', (status) => {
    const schema = generateContent.responses[status] as z.ZodTypeAny;
    expect(schema.safeParse({ error: { code: status, message: 'Boom', status: 'INTERNAL' } }).success).toBe(true);
    expect(schema.safeParse({ error: { message: 'Boom', type: 'server_error', param: null, code: null } }).success).toBe(false);
  });

  it('takes generateContent and streamGenerateContent on any model name, the last colon splitting them', () => {
    const params = generateContent.pathParams as z.ZodTypeAny;
    expect(params.safeParse({ target: 'gemini-2.5-flash:generateContent' }).success).toBe(true);
    expect(parseGeminiTarget('gemini-2.5-flash:streamGenerateContent')).toEqual({ model: 'gemini-2.5-flash', method: 'streamGenerateContent' });
    expect(parseGeminiTarget('vendor:model:v2:generateContent')).toEqual({ model: 'vendor:model:v2', method: 'generateContent' });
    expect(parseGeminiTarget('gemini-2.5-flash:embedContent')).toEqual({ model: 'gemini-2.5-flash', method: 'embedContent' });
    expect(params.safeParse({ target: 'gemini-2.5-flash:embedContent' }).success).toBe(false);
    for (const target of ['gemini-2.5-flash:predictLongRunning', 'gemini-2.5-flash', ':generateContent', 'gemini:generatecontent']) {
      expect(parseGeminiTarget(target)).toBeUndefined();
      expect(params.safeParse({ target }).success).toBe(false);
    }
  });

  it('reads ?alt and ?key, and accepts any other query parameter', () => {
    const query = generateContent.query as z.ZodTypeAny;
    expect(query.parse({ alt: 'sse', key: 'k', $fields: 'x' })).toEqual({ alt: 'sse', key: 'k' });
  });
});

describe('GeminiGenerateContentRequestSchema', () => {
  /** What @google/genai 2.x sends for a call with a system instruction, a function tool and a config. */
  const sdkBody = {
    contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
    systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
    tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    generationConfig: { temperature: 0.5, maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 } },
  };

  it('parses what the SDK sends, unchanged', () => {
    expect(GeminiGenerateContentRequestSchema.parse(sdkBody)).toEqual(sdkBody);
  });

  it('keeps fields it does not type, at every level, so a Gemini channel receives them', () => {
    const body = {
      ...sdkBody,
      labels: { team: 'a' },
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
      contents: [{ role: 'user', parts: [{ text: 'hi', videoMetadata: { fps: 2 } }, { newPartKind: { a: 1 } }] }],
      generationConfig: { speechConfig: { voiceConfig: {} }, mediaResolution: 'MEDIA_RESOLUTION_LOW' },
    };
    expect(GeminiGenerateContentRequestSchema.parse(body)).toEqual(body);
  });

  it('reads the proto (snake_case) names Google’s REST examples use, and only at the levels it knows', () => {
    const parsed = GeminiGenerateContentRequestSchema.parse({
      system_instruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ function_call: { name: 'f', args: { user_id: 7 } } }] },
      ],
      tools: [{ function_declarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { user_id: { type: 'INTEGER' } } } }] }],
      tool_config: { function_calling_config: { mode: 'AUTO' } },
      generation_config: { max_output_tokens: 10, stop_sequences: ['x'] },
    });
    expect(parsed.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(parsed.contents[0]?.parts[0]?.inlineData).toEqual({ mimeType: 'image/png', data: 'AAAA' });
    // The arguments and the schema's properties keep their keys as sent.
    expect(parsed.contents[1]?.parts[0]?.functionCall).toEqual({ name: 'f', args: { user_id: 7 } });
    expect(parsed.tools?.[0]?.functionDeclarations?.[0]?.parameters).toEqual({ type: 'OBJECT', properties: { user_id: { type: 'INTEGER' } } });
    expect(parsed.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(parsed.generationConfig).toEqual({ maxOutputTokens: 10, stopSequences: ['x'] });
  });

  it('a camelCase field wins over its snake_case twin, which is kept as sent', () => {
    const parsed = GeminiGenerateContentRequestSchema.parse({ contents: [{ parts: [{ text: 'a' }] }], generationConfig: { topK: 3, top_k: 9 } });
    expect(parsed.generationConfig).toEqual({ topK: 3, top_k: 9 });
  });

  it.each([
    [{}, ['contents']],
    [{ contents: [] }, ['contents']],
    [{ contents: [{ role: 'assistant', parts: [{ text: 'a' }] }] }, ['contents', 0, 'role']],
    [{ contents: [{ role: 'user', parts: [] }] }, ['contents', 0, 'parts']],
    [{ contents: [{ parts: [{ text: 7 }] }] }, ['contents', 0, 'parts', 0, 'text']],
    [{ contents: [{ parts: [{ functionResponse: { name: 'f', response: 'sunny' } }] }] }, ['contents', 0, 'parts', 0, 'functionResponse', 'response']],
    [{ contents: [{ parts: [{ text: 'a' }] }], generationConfig: { temperature: 3 } }, ['generationConfig', 'temperature']],
    [{ contents: [{ parts: [{ text: 'a' }] }], generationConfig: { maxOutputTokens: 0 } }, ['generationConfig', 'maxOutputTokens']],
    [{ contents: [{ parts: [{ text: 'a' }] }], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, ['toolConfig', 'functionCallingConfig', 'mode']],
  ])('refuses %j at %j', (body, path) => {
    const result = GeminiGenerateContentRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });
});

describe('GeminiErrorResponseSchema', () => {
  it('is a google.rpc.Status under `error`, details kept', () => {
    const body = { error: { code: 404, message: 'no', status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'x' }] } };
    expect(GeminiErrorResponseSchema.parse(body)).toEqual(body);
    expect(GeminiErrorResponseSchema.safeParse({ error: { code: 404, message: 'no' } }).success).toBe(false);
  });
});
