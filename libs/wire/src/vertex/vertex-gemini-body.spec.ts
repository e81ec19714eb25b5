import { toVertexGeminiBody } from './vertex-gemini-body';

describe('a Gemini API body made Vertex v1’s', () => {
  it('fills a missing role with user (what the Gemini API assumes) and keeps the ones given', () => {
    // https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content: "Specifying a role is required even in singleturn use cases."
    const body = toVertexGeminiBody({ contents: [{ parts: [{ text: 'a' }] }, { role: 'model', parts: [{ text: 'b' }] }, { role: '', parts: [] }] });
    expect(body['contents']).toEqual([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'model', parts: [{ text: 'b' }] },
      { role: 'user', parts: [] },
    ]);
  });

  it('drops the ids of function calls and responses, and nothing else of the part', () => {
    // https://firebase.google.com/docs/reference/js/ai.functioncall: `id` "is only supported in the Gemini Developer API".
    const body = toVertexGeminiBody({
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: {} }, thoughtSignature: 'sig' }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response: { ok: true } } }] },
      ],
      systemInstruction: { parts: [{ text: 's' }] },
    });
    expect(body).toEqual({
      contents: [
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] },
      ],
      systemInstruction: { parts: [{ text: 's' }] },
    });
  });

  it('leaves a body without contents as it is (Vertex then names what is missing)', () => {
    expect(toVertexGeminiBody({ generationConfig: {} })).toEqual({ generationConfig: {} });
  });
});
