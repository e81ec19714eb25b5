import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { handleGenerateContent, type GeminiContext } from '../gemini/handle-generate-content';
import { invalidArgument, sendGeminiError } from '../gemini/gemini-error';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What Vertex's v1 generateContent refuses that the Gemini API takes: a content without `role`
 * ("Specifying a role is required even in singleturn use cases",
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content), and an `id` on
 * a function call or response — a Gemini Developer API field
 * (https://firebase.google.com/docs/reference/js/ai.functioncall), an unknown name to Vertex v1's
 * proto, which Google's JSON parser refuses with this message.
 */
export function vertexContentProblem(body: unknown): string | undefined {
  if (!isObject(body) || !Array.isArray(body['contents'])) return undefined;
  for (const [index, content] of body['contents'].entries()) {
    if (!isObject(content)) continue;
    if (typeof content['role'] !== 'string' || content['role'] === '') return 'Please use a valid role: user, model.';
    const parts = Array.isArray(content['parts']) ? content['parts'] : [];
    for (const [partIndex, part] of parts.entries()) {
      if (!isObject(part)) continue;
      for (const [field, proto] of [['functionCall', 'function_call'], ['functionResponse', 'function_response']] as const) {
        const call = part[field];
        if (isObject(call) && 'id' in call) {
          return `Invalid JSON payload received. Unknown name "id" at 'contents[${index}].parts[${partIndex}].${proto}': Cannot find field.`;
        }
      }
    }
  }
  return undefined;
}

/**
 * `…/publishers/google/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`:
 * the Gemini API's handler once Vertex's own rules pass — the bearer already checked, so the
 * Gemini side's key check is satisfied with a stand-in.
 */
export async function handleVertexGenerateContent(
  call: { model: string; stream: boolean; query: string; headers: IncomingHttpHeaders },
  res: ServerResponse,
  rawBody: string,
  context: GeminiContext,
): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  const problem = vertexContentProblem(body);
  if (problem) return sendGeminiError(res, invalidArgument(problem));
  const headers = { ...call.headers, 'x-goog-api-key': 'vertex-bearer-checked' };
  await handleGenerateContent({ model: call.model, stream: call.stream, query: new URLSearchParams(call.query), headers }, res, rawBody, { ...context, acceptedKeys: undefined });
}
