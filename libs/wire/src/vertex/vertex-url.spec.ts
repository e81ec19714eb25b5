import { isVertexClaude, vertexHostOf, vertexModelUrl, vertexRegionOf } from './vertex-url';
import { GLOBAL, SERVICE_ACCOUNT_KEY, US_EAST5 } from './testing/vertex-channel';

// https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations — regional hosts, and the global one.
describe('where a Vertex channel sends its requests', () => {
  it('uses the regional host for a region on the catalogue base URL, the global host for global or no region', () => {
    expect(vertexHostOf(US_EAST5)).toBe('https://us-east5-aiplatform.googleapis.com');
    expect(vertexHostOf(GLOBAL)).toBe('https://aiplatform.googleapis.com');
    expect(vertexHostOf({ baseUrl: 'https://aiplatform.googleapis.com/', cloud: { region: 'global' } })).toBe('https://aiplatform.googleapis.com');
    expect(vertexRegionOf(GLOBAL)).toBe('global');
    expect(vertexHostOf({ baseUrl: 'https://aiplatform.googleapis.com', cloud: { region: 'eu' } })).toBe('https://aiplatform.eu.rep.googleapis.com');
  });

  it('keeps any other base URL as it is (a private endpoint, the simulator), with the region only in the path', () => {
    const privateEndpoint = { baseUrl: 'https://vertex.corp.example/', cloud: { region: 'europe-west4' } };
    expect(vertexHostOf(privateEndpoint)).toBe('https://vertex.corp.example');
    expect(vertexModelUrl({ channel: privateEndpoint, key: SERVICE_ACCOUNT_KEY, publisher: 'google', model: 'gemini-2.5-pro', method: 'generateContent' })).toBe(
      'https://vertex.corp.example/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent',
    );
  });

  it("takes the project from the key file, keeps a Claude id's @ date, and escapes what could leave the path", () => {
    const claude = vertexModelUrl({ channel: GLOBAL, key: SERVICE_ACCOUNT_KEY, publisher: 'anthropic', model: 'claude-sonnet-4-5@20250929', method: 'rawPredict' });
    expect(claude).toBe('https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    const odd = vertexModelUrl({ channel: GLOBAL, key: SERVICE_ACCOUNT_KEY, publisher: 'google', model: 'x/../../y?z=1', method: 'predict' });
    expect(odd).toBe('https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/google/models/x%2F..%2F..%2Fy%3Fz%3D1:predict');
  });

  it('refuses a key that is no service account rather than send a request without a project', () => {
    expect(() => vertexModelUrl({ channel: GLOBAL, key: 'AIzaNotAServiceAccount', publisher: 'google', model: 'gemini-2.5-pro', method: 'generateContent' })).toThrow(
      "The vertex channel's key is not a service account's JSON key file.",
    );
  });

  it('tells Claude by its id, dated or not, and everything else is Gemini', () => {
    expect(['claude-sonnet-4-5@20250929', 'claude-opus-4-6', 'publishers/anthropic/models/claude-haiku-4-5@20251001'].map(isVertexClaude)).toEqual([true, true, true]);
    expect(['gemini-2.5-flash', 'text-embedding-005', 'models/gemini-2.0-flash'].map(isVertexClaude)).toEqual([false, false, false]);
  });
});
