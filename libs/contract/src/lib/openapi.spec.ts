import { buildOpenApiDocument } from './openapi';

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument() as any;

  it('is an OpenAPI 3 document', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('chat-relay');
  });

  it('lists every route of the contract, in OpenAPI path syntax', () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/v1/chat/completions',
        '/v1/messages',
        '/v1/messages/count_tokens',
        '/v1/models',
        '/v1/models/{model}',
        '/v1/responses',
        '/v1/responses/{id}',
        '/v1/responses/{id}/cancel',
        '/v1/responses/{id}/input_items',
        '/v1/completions',
        '/v1/embeddings',
        '/v1/rerank',
        '/v1/moderations',
        '/v1/images/generations',
        '/v1/images/edits',
        '/v1/audio/speech',
        '/v1/audio/transcriptions',
        '/v1/audio/translations',
        '/v1beta/models/{target}',
        '/v1beta/models/{target}:countTokens',
        '/v1beta/models/{target}:embedContent',
        '/v1beta/models/{target}:batchEmbedContents',
        '/v1beta/models',
        '/v1beta/models/{model}',
        '/v1/search',
        '/v1/videos',
        '/v1/videos/{id}',
        '/v1/videos/{id}/content',
        '/suno/submit/{action}',
        '/suno/fetch',
        '/suno/fetch/{id}',
        '/api/channels',
        '/api/channels/{id}',
        '/api/channels/{id}/test',
        '/api/channels/{id}/models/sync',
        '/api/tokens',
        '/api/tokens/{id}',
        '/api/assistants',
        '/api/assistants/{id}',
        '/api/catalogue',
        '/api/catalogue/models/{model}',
        '/api/catalogue/overrides/{id}',
        '/api/catalogue/refresh',
        '/api/catalogue/unpriced',
        '/api/account',
        '/api/accounts',
        '/api/accounts/{id}',
        '/api/logs',
        '/api/logs/export',
        '/api/usage',
        '/api/fallbacks',
        '/api/fallbacks/{id}',
        '/api/webhooks',
        '/api/webhooks/deliveries',
        '/api/webhooks/{id}',
        '/api/webhooks/{id}/test',
        '/api/models',
        '/api/prices',
        '/api/tokens/batch',
        '/api/tokens/search',
        '/api/tokens/{id}/usage',
        '/v1/dashboard/billing/subscription',
        '/v1/dashboard/billing/usage',
        '/healthz',
        '/readyz',
        '/metrics',
        '/openapi.json',
      ].sort(),
    );
  });

  it('describes the chat request body: messages required, model too unless `models` names it (issue 32)', () => {
    const operation = document.paths['/v1/chat/completions'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.properties).toEqual(expect.objectContaining({ model: expect.any(Object), messages: expect.any(Object), models: expect.any(Object), fallbacks: expect.any(Object) }));
    expect(schema.required).toEqual(['messages']);
    expect(operation.operationId).toBe('createChatCompletion');
  });

  it('documents the chat completion answer, though the server may send it pre-serialised', () => {
    const schema = document.paths['/v1/chat/completions'].post.responses['200'].content['application/json'].schema;
    expect(schema.properties).toEqual(expect.objectContaining({ id: expect.any(Object), choices: expect.any(Object), model: expect.any(Object) }));
  });

  it('documents the OpenAI error shape for error statuses', () => {
    const errorSchema = document.paths['/v1/chat/completions'].post.responses['400'].content['application/json'].schema;
    expect(errorSchema.properties.error.required).toEqual(expect.arrayContaining(['message', 'type', 'param', 'code']));
  });

  describe('the Anthropic Messages routes', () => {
    const createMessage = () => document.paths['/v1/messages'].post;
    const countTokens = () => document.paths['/v1/messages/count_tokens'].post;

    it('describe the request body: max_tokens required on /v1/messages, not on count_tokens', () => {
      expect(createMessage().operationId).toBe('createMessage');
      const body = createMessage().requestBody.content['application/json'].schema;
      // `model` may be left out when `models` names the chain (issue 32).
      expect(body.required).toEqual(expect.arrayContaining(['messages', 'max_tokens']));
      expect(body.properties).toEqual(expect.objectContaining({ model: expect.any(Object), models: expect.any(Object) }));
      const countBody = countTokens().requestBody.content['application/json'].schema;
      expect(countBody.required).toEqual(expect.arrayContaining(['model', 'messages']));
      expect(countBody.required).not.toContain('max_tokens');
    });

    it('document the Message answer (sent pre-serialised) and the token count', () => {
      const message = createMessage().responses['200'].content['application/json'].schema;
      expect(message.properties).toEqual(
        expect.objectContaining({ content: expect.any(Object), stop_reason: expect.any(Object), usage: expect.any(Object) }),
      );
      expect(countTokens().responses['200'].content['application/json'].schema.required).toEqual(['input_tokens']);
    });

    it("answer errors in Anthropic's shape, 529 overloaded included", () => {
      for (const status of ['400', '401', '429', '529']) {
        const schema = createMessage().responses[status].content['application/json'].schema;
        expect(schema.required).toEqual(expect.arrayContaining(['type', 'error']));
        expect(schema.properties.error.required).toEqual(expect.arrayContaining(['type', 'message']));
      }
    });

    it('take the optional ?beta query parameter the SDK beta namespace adds', () => {
      for (const operation of [createMessage(), countTokens()]) {
        const beta = operation.parameters.find((parameter: any) => parameter.name === 'beta');
        expect(beta).toMatchObject({ in: 'query', schema: { type: 'string' } });
        expect(beta.required).not.toBe(true);
      }
    });

    it('accept the key as x-api-key or Bearer; the OpenAI routes keep the Bearer default', () => {
      expect(createMessage().security).toEqual([{ bearer: [] }, { apiKey: [] }]);
      expect(document.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
      expect(document.paths['/v1/chat/completions'].post.security).toBeUndefined();
    });
  });

  describe('the Gemini route', () => {
    const generateContent = () => document.paths['/v1beta/models/{target}'].post;

    it('documents the request body, the answer and Google’s error shape', () => {
      const operation = generateContent();
      expect(operation.operationId).toBe('generateContent');
      const body = operation.requestBody.content['application/json'].schema;
      expect(body.properties).toEqual(expect.objectContaining({ contents: expect.any(Object), generationConfig: expect.any(Object) }));
      expect(body.required).toEqual(['contents']);
      const answer = operation.responses['200'].content['application/json'].schema;
      expect(answer.properties).toEqual(expect.objectContaining({ candidates: expect.any(Object), usageMetadata: expect.any(Object) }));
      const error = operation.responses['404'].content['application/json'].schema;
      expect(error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'status']));
    });

    it('documents countTokens, the embedding methods and the model list as operations of their own', () => {
      expect(document.paths['/v1beta/models/{target}:countTokens'].post.operationId).toBe('countTokens');
      expect(document.paths['/v1beta/models/{target}:embedContent'].post.operationId).toBe('embedContent');
      expect(document.paths['/v1beta/models/{target}:batchEmbedContents'].post.requestBody.content['application/json'].schema.required).toEqual(['requests']);
      expect(document.paths['/v1beta/models'].get.operationId).toBe('listGeminiModels');
      expect(document.paths['/v1beta/models/{model}'].get.security).toEqual([{ bearer: [] }, { googApiKey: [] }, { googKeyQuery: [] }]);
    });

    it('accepts the key as Bearer, x-goog-api-key or ?key=', () => {
      expect(generateContent().security).toEqual([{ bearer: [] }, { googApiKey: [] }, { googKeyQuery: [] }]);
      expect(document.components.securitySchemes.googApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-goog-api-key' });
      expect(document.components.securitySchemes.googKeyQuery).toEqual({ type: 'apiKey', in: 'query', name: 'key' });
    });
  });

  describe('the Responses routes', () => {
    const paths = () => document.paths;

    it('name each operation, with the methods OpenAI uses', () => {
      expect(paths()['/v1/responses'].post.operationId).toBe('createResponse');
      expect(Object.keys(paths()['/v1/responses/{id}']).sort()).toEqual(['delete', 'get']);
      expect(paths()['/v1/responses/{id}'].get.operationId).toBe('retrieveResponse');
      expect(paths()['/v1/responses/{id}'].delete.operationId).toBe('deleteResponse');
      expect(paths()['/v1/responses/{id}/input_items'].get.operationId).toBe('listResponseInputItems');
      expect(paths()['/v1/responses/{id}/cancel'].post.operationId).toBe('cancelResponse');
    });

    it('describe the create body (model, or models naming it; input and tools documented) and the Response answer', () => {
      const operation = paths()['/v1/responses'].post;
      const body = operation.requestBody.content['application/json'].schema;
      expect(body.required ?? []).toEqual([]);
      expect(body.properties).toEqual(expect.objectContaining({ model: expect.any(Object), models: expect.any(Object), fallbacks: expect.any(Object) }));
      expect(body.properties).toEqual(expect.objectContaining({ input: expect.any(Object), tools: expect.any(Object), text: expect.any(Object) }));
      const answer = operation.responses['200'].content['application/json'].schema;
      expect(answer.required).toEqual(expect.arrayContaining(['id', 'object', 'status', 'output']));
      expect(operation.responses['400'].content['application/json'].schema.properties.error.required).toEqual(
        expect.arrayContaining(['message', 'type', 'param', 'code']),
      );
    });

    it('document the delete answer, the item page and its cursor parameters', () => {
      expect(paths()['/v1/responses/{id}'].delete.responses['200'].content['application/json'].schema.required).toEqual(['id', 'object', 'deleted']);
      const list = paths()['/v1/responses/{id}/input_items'].get;
      expect(list.responses['200'].content['application/json'].schema.required).toEqual(
        expect.arrayContaining(['object', 'data', 'has_more']),
      );
      const query = list.parameters.filter((parameter: any) => parameter.in === 'query').map((parameter: any) => parameter.name);
      expect(query).toEqual(expect.arrayContaining(['limit', 'order', 'after', 'include']));
    });
  });

  it('uses the right methods on the admin routes', () => {
    expect(Object.keys(document.paths['/api/channels/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(document.paths['/api/tokens']).sort()).toEqual(['get', 'post']);
  });
});
