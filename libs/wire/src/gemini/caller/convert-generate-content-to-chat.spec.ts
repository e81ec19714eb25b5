import { lost } from '../../testing/lost';
import { GeminiGenerateContentRequestSchema, type GeminiGenerateContentRequest } from '@chat-relay/contract';
import { convertGenerateContentToChat } from './convert-generate-content-to-chat';

const ask = (extra: Record<string, unknown> = {}): GeminiGenerateContentRequest =>
  GeminiGenerateContentRequestSchema.parse({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], ...extra });
const convert = (extra: Record<string, unknown> = {}, stream = false) =>
  convertGenerateContentToChat({ body: ask(extra), model: 'gemini-2.5-flash', stream });

describe('convertGenerateContentToChat', () => {
  it('the path’s model, the turns, nothing else for a bare request', () => {
    const converted = convert();
    expect(converted.request).toEqual({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] });
    expect(converted.warnings).toEqual([]);
    expect(converted.nativeOnly).toBeUndefined();
    expect(converted.includeThoughts).toBe(false);
  });

  it('streamGenerateContent asks the hub for a stream with its usage chunk', () => {
    expect(convert({}, true).request).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('maps generationConfig field by field', () => {
    const { request, warnings } = convert({
      generationConfig: {
        maxOutputTokens: 300,
        stopSequences: ['END', 'STOP'],
        temperature: 1.5,
        topP: 0.9,
        topK: 40,
        candidateCount: 2,
        seed: 7,
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
      },
    });
    expect(request).toEqual({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 300,
      stop: ['END', 'STOP'],
      temperature: 1.5,
      top_p: 0.9,
      top_k: 40,
      n: 2,
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    });
    expect(warnings).toEqual([]);
  });

  it('candidateCount 1 is the default and is not sent as n', () => {
    expect(convert({ generationConfig: { candidateCount: 1 } }).request).not.toHaveProperty('n');
  });

  it.each([
    [{ thinkingBudget: 1024 }, 'low'],
    [{ thinkingBudget: 4096 }, 'medium'],
    [{ thinkingBudget: 24576 }, 'high'],
    [{ thinkingLevel: 'HIGH' }, 'high'],
    [{ thinkingLevel: 'minimal', thinkingBudget: 30000 }, 'minimal'],
    [{ thinkingBudget: 0 }, undefined],
    [{ thinkingBudget: -1 }, undefined],
  ])('thinkingConfig %j → reasoning_effort %s', (thinkingConfig, effort) => {
    expect(convert({ generationConfig: { thinkingConfig } }).request.reasoning_effort).toBe(effort);
  });

  it('includeThoughts is told to the bridge, which answers with thought parts', () => {
    expect(convert({ generationConfig: { thinkingConfig: { includeThoughts: true } } }).includeThoughts).toBe(true);
  });

  describe('structured output', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

    it('application/json with responseJsonSchema → json_schema named response, the schema as it is', () => {
      expect(convert({ generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } }).request.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'response', schema },
      });
    });

    it('application/json with responseSchema → json_schema with the subset converted to JSON Schema', () => {
      const responseSchema = { type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true } }, propertyOrdering: ['city'] };
      expect(convert({ generationConfig: { responseMimeType: 'application/json', responseSchema } }).request.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object', properties: { city: { type: ['string', 'null'] } } } },
      });
    });

    it('application/json alone → json_object; text/plain → nothing', () => {
      expect(convert({ generationConfig: { responseMimeType: 'application/json' } }).request.response_format).toEqual({ type: 'json_object' });
      expect(convert({ generationConfig: { responseMimeType: 'text/plain' } }).request).not.toHaveProperty('response_format');
    });

    it('a schema without responseMimeType is not applied, as Gemini does not, and says so', () => {
      const converted = convert({ generationConfig: { responseJsonSchema: schema } });
      expect(converted.request).not.toHaveProperty('response_format');
      expect(converted.warnings).toEqual([lost(/^generationConfig\.response(Json)?Schema$/)]);
    });

    it('text/x.enum answers only a Gemini channel can give', () => {
      const converted = convert({ generationConfig: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } } });
      expect(converted.nativeOnly).toMatchObject({ status: 400, param: 'generationConfig.responseMimeType' });
      expect(converted.nativeOnly?.message).toContain('can only be served by a Gemini channel');
    });
  });

  describe('what cannot be bridged exactly', () => {
    it('safetySettings, unknown fields and unknown generationConfig fields are warnings, not sent', () => {
      const converted = convert({
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        labels: { team: 'a' },
        generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' },
      });
      expect(converted.nativeOnly).toBeUndefined();
      expect(converted.warnings).toEqual([
        lost('safetySettings'),
        lost('labels'),
        lost('generationConfig.mediaResolution'),
      ]);
      expect(converted.request).not.toHaveProperty('labels');
    });

    it('logprobs are said not to come back', () => {
      expect(convert({ generationConfig: { responseLogprobs: true, logprobs: 3 } }).warnings).toEqual([lost('generationConfig.responseLogprobs')]);
    });

    it.each([
      [{ cachedContent: 'cachedContents/abc' }, 'cachedContent'],
      [{ generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }, 'generationConfig.responseModalities'],
      [{ generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e'] } }, 'generationConfig.stopSequences'],
      [{ tools: [{ googleSearch: {} }] }, 'tools[0].googleSearch'],
    ])('%j is refused for bridged channels, naming %s; the hub request is still built', (extra, param) => {
      const converted = convert(extra);
      expect(converted.nativeOnly).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'unsupported_parameter', param });
      expect(converted.request.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    });

    it('TEXT alone as response modality is the default and fine', () => {
      expect(convert({ generationConfig: { responseModalities: ['TEXT'] } }).nativeOnly).toBeUndefined();
    });

    it('the first refusal is the one named', () => {
      const converted = convert({ cachedContent: 'cachedContents/abc', tools: [{ codeExecution: {} }] });
      expect(converted.nativeOnly?.param).toBe('cachedContent');
    });
  });
});
