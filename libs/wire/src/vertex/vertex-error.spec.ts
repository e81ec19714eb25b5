import { mapVertexErrorResponse } from './vertex-error';

const google = (code: number, status: string, message: string) => JSON.stringify({ error: { code, message, status } });

// https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/api-errors
describe('Vertex failures', () => {
  it("disable the key on Google's 401 UNAUTHENTICATED and 403 PERMISSION_DENIED", () => {
    const unauthenticated = mapVertexErrorResponse(401, google(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'), []);
    expect(unauthenticated).toMatchObject({ keyRejected: true, retryable: true });
    const resource = "'//aiplatform.googleapis.com/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-flash' (or it may not exist).";
    const denied = mapVertexErrorResponse(403, google(403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource ${resource}`), []);
    expect(denied).toMatchObject({ keyRejected: true, retryable: true });
    expect(denied.error.message).not.toContain('acme-prod');
  });

  it('keep the key on a 403 about one model without IAM’s wording, as for any provider', () => {
    const failure = mapVertexErrorResponse(403, google(403, 'PERMISSION_DENIED', 'Your project does not have access to model claude-opus-4-6.'), []);
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.retryable).toBe(true);
  });

  it('retry elsewhere on 429 RESOURCE_EXHAUSTED, counted against the channel', () => {
    const failure = mapVertexErrorResponse(429, google(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute'), []);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.error.code).toBe('RESOURCE_EXHAUSTED');
  });

  it('answer 404 for a model the project cannot reach, not retried', () => {
    const message = 'Publisher Model `projects/acme-prod/locations/us-east5/publishers/google/models/gemini-9` was not found or your project does not have access to it.';
    const failure = mapVertexErrorResponse(404, google(404, 'NOT_FOUND', message), []);
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error.status).toBe(404);
    expect(failure.error.message).toContain('gemini-9');
  });

  it("read Claude's own refusals in Anthropic's shape", () => {
    const failure = mapVertexErrorResponse(400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } }), []);
    expect(failure).toMatchObject({ retryable: false });
    expect(failure.error.status).toBe(400);
    expect(failure.error.message).toContain('max_tokens: Field required');
    const overloaded = mapVertexErrorResponse(529, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), []);
    expect(overloaded).toMatchObject({ retryable: true, channelFault: true });
    expect(overloaded.error.code).toBe('overloaded_error');
  });
});
