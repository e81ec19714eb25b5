import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { z } from 'zod';
import type { RouteMetadata } from './common-responses';
import { relayContract } from './contract';

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((entry) => (isAppRoute(entry) ? [entry] : routesOf(entry)));
}
const metadataOf = (route: AppRoute) => route.metadata as RouteMetadata;
const { createMessage, countMessageTokens } = relayContract.messages;

describe('relayContract.messages', () => {
  it('is the Anthropic dialect, token-authenticated, with a usage row for both routes', () => {
    for (const route of [createMessage, countMessageTokens]) {
      expect(metadataOf(route)).toEqual({ auth: 'token', streaming: true, dialect: 'anthropic' });
    }
    expect([createMessage.path, countMessageTokens.path]).toEqual(['/v1/messages', '/v1/messages/count_tokens']);
  });

  it('is the only area speaking the Anthropic dialect; the model list negotiates; Gemini and the Suno-style routes have their own; the other routes default to openai', () => {
    const anthropic = routesOf(relayContract).filter((route) => metadataOf(route).dialect === 'anthropic');
    expect(anthropic.map((route) => route.path).sort()).toEqual(['/v1/messages', '/v1/messages/count_tokens']);
    const negotiated = routesOf(relayContract).filter((route) => metadataOf(route).dialect === 'negotiated');
    expect(negotiated.map((route) => route.path).sort()).toEqual(['/v1/models', '/v1/models/:model']);
    const gemini = routesOf(relayContract).filter((route) => metadataOf(route).dialect === 'gemini');
    // generateContent, streamGenerateContent, countTokens, embedContent, batchEmbedContents share one path; the model list two.
    expect(gemini.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'GET /v1beta/models',
      'GET /v1beta/models/:model',
      ...Array.from({ length: 4 }, () => 'POST /v1beta/models/:target'),
    ]);
    const suno = routesOf(relayContract).filter((route) => metadataOf(route).dialect === 'suno');
    expect(suno.map((route) => `${route.method} ${route.path}`).sort()).toEqual(['GET /suno/fetch/:id', 'POST /suno/fetch', 'POST /suno/submit/:action']);
    const others = routesOf(relayContract).filter((route) => ![...anthropic, ...negotiated, ...gemini, ...suno].includes(route));
    expect(others.length).toBeGreaterThan(20);
    expect(others.filter((route) => metadataOf(route).dialect !== undefined)).toEqual([]);
  });

  it.each([400, 401, 402, 403, 404, 413, 429, 500, 502, 503, 504, 529] as const)(
    'answers %i with the Anthropic error body, not the OpenAI one',
    (status) => {
      const anthropicError = { type: 'error', error: { type: 'api_error', message: 'Boom' } };
      const openAiError = { error: { message: 'Boom', type: 'server_error', param: null, code: null } };
      for (const route of [createMessage, countMessageTokens]) {
        const schema = route.responses[status] as z.ZodTypeAny;
        expect(schema.safeParse(anthropicError).success).toBe(true);
        expect(schema.safeParse(openAiError).success).toBe(false);
      }
    },
  );

  it('takes ?beta=true, and no query at all', () => {
    const query = createMessage.query as z.ZodTypeAny;
    expect(query.parse({ beta: 'true' })).toEqual({ beta: 'true' });
    expect(query.parse({})).toEqual({});
  });
});
