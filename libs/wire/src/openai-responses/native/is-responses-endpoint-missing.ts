import { OpenAiErrorBodySchema } from '../../openai-chat/openai-api';

/**
 * An OpenAI error naming a code (`model_not_found`, `previous_response_not_found`, vLLM's
 * numeric 404) is about the request; OpenAI's own unknown path has `code: null`.
 */
function namesACode(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  const parsed = OpenAiErrorBodySchema.safeParse(json);
  if (!parsed.success || typeof parsed.data.error === 'string') return false;
  const code = parsed.data.error.code;
  return code !== null && code !== undefined;
}

/**
 * The upstream has no `/responses` endpoint, so the channel cannot take the request natively
 * (the relay bridges through Chat Completions instead): every 405, or a 404 that is not an OpenAI
 * error naming a code — OpenAI's `Invalid URL (POST /v1/responses)` has `code: null`, FastAPI
 * servers (vLLM) answer `{"detail":"Not Found"}`, others plain text. A 404 naming a code (an
 * unknown model, an unknown `previous_response_id`) is the request's fault and says nothing of
 * the endpoint.
 */
export function isResponsesEndpointMissing(status: number, text: string): boolean {
  if (status === 405) return true;
  return status === 404 && !namesACode(text);
}
