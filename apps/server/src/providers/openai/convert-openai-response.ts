import { upstreamError } from '../../errors/relay-error';
import type { ConvertedCompletion } from '../provider-adapter';
import { OpenAiCompletionEnvelopeSchema } from './openai-api';


/** A non-streamed upstream answer, with `model` set to the name the caller sent. */
export function convertOpenAiResponse(text: string, publicModel: string): ConvertedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
  const parsed = OpenAiCompletionEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: upstreamError('The upstream provider sent a malformed completion.', 'bad_response') };
  }
  const usage = parsed.data.usage
    ? { promptTokens: parsed.data.usage.prompt_tokens, completionTokens: parsed.data.usage.completion_tokens }
    : undefined;
  const deliveredChars = usage ? 0 : JSON.stringify(parsed.data.choices).length;
  // Spread the upstream's own object, not zod's copy, so its field order is kept as sent.
  return { ok: true, body: { ...(json as Record<string, unknown>), model: publicModel }, usage, deliveredChars };
}
