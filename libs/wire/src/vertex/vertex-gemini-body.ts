import { isJsonObject, type JsonObject } from '../json/json-checks';

/**
 * A generateContent body as Vertex's v1 endpoint takes it, from one written for the Gemini API:
 *
 * - every content has its `role`: Vertex requires one "even in singleturn use cases"
 *   (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content), where the
 *   Gemini API reads a missing one as `user`
 *   (https://ai.google.dev/api/caching#Content) — so `user` is written;
 * - `functionCall.id` and `functionResponse.id` are left out: "only supported in the Gemini
 *   Developer API" (https://firebase.google.com/docs/reference/js/ai.functioncall), absent from
 *   Vertex's v1 FunctionCall (https://cloud.google.com/dotnet/docs/reference/Google.Cloud.AIPlatform.V1/latest/Google.Cloud.AIPlatform.V1.FunctionCall).
 *   Vertex pairs calls and responses by name and order instead, as the Gemini API did before ids.
 *
 * Everything else — systemInstruction, tools, toolConfig, generationConfig (thinkingConfig
 * included), thoughtSignature on parts — is the same on both APIs and passes as it is.
 */
export function toVertexGeminiBody(body: Readonly<JsonObject>): JsonObject {
  const contents = body['contents'];
  if (!Array.isArray(contents)) return { ...body };
  return { ...body, contents: contents.map(toVertexContent) };
}

function toVertexContent(content: unknown): unknown {
  if (!isJsonObject(content)) return content;
  const parts = Array.isArray(content['parts']) ? { parts: content['parts'].map(withoutCallId) } : {};
  return { ...content, role: typeof content['role'] === 'string' && content['role'] !== '' ? content['role'] : 'user', ...parts };
}

function withoutCallId(part: unknown): unknown {
  if (!isJsonObject(part)) return part;
  for (const field of ['functionCall', 'functionResponse'] as const) {
    const call = part[field];
    if (isJsonObject(call) && 'id' in call) {
      const { id: _id, ...rest } = call;
      return { ...part, [field]: rest };
    }
  }
  return part;
}
