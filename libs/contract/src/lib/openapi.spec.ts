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
        '/v1/models',
        '/v1/models/{model}',
        '/api/channels',
        '/api/channels/{id}',
        '/api/channels/{id}/test',
        '/api/tokens',
        '/api/tokens/{id}',
        '/api/assistants',
        '/api/assistants/{id}',
        '/api/account',
        '/api/accounts',
        '/api/accounts/{id}',
        '/api/logs',
        '/api/models',
        '/api/prices',
        '/api/tokens/batch',
        '/api/tokens/search',
        '/api/tokens/{id}/usage',
        '/v1/dashboard/billing/subscription',
        '/v1/dashboard/billing/usage',
        '/healthz',
        '/openapi.json',
      ].sort(),
    );
  });

  it('describes the chat request body with model and messages, both required', () => {
    const operation = document.paths['/v1/chat/completions'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.properties).toEqual(expect.objectContaining({ model: expect.any(Object), messages: expect.any(Object) }));
    expect(schema.required).toEqual(expect.arrayContaining(['model', 'messages']));
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

  it('uses the right methods on the admin routes', () => {
    expect(Object.keys(document.paths['/api/channels/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(document.paths['/api/tokens']).sort()).toEqual(['get', 'post']);
  });
});
