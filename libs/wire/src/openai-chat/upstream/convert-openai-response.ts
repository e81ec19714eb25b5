import { upstreamError } from '../../errors/relay-error';
import { isJsonObject } from '../../json/json-checks';
import type { ConvertedCompletion } from '../../hub/provider-adapter';
import { servedTierRun } from '../../passthrough/passthrough-carriage';
import { editChunkText } from './edit-chunk-text';
import { readUsage } from './read-openai-chunk';

/** A non-streamed upstream answer, with `model` set to the name the caller sent. */
export function convertOpenAiResponse(text: string, publicModel: string): ConvertedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
  // The least the relay needs — choices, and usage when given — checked without copying the answer.
  const completion = isJsonObject(json) ? json : undefined;
  const usage = completion && Array.isArray(completion['choices']) ? readUsage(completion['usage']) : false;
  if (!completion || usage === false || !(completion['model'] === undefined || typeof completion['model'] === 'string')) {
    return { ok: false, error: upstreamError('The upstream provider sent a malformed completion.', 'bad_response') };
  }
  const deliveredChars = usage ? 0 : JSON.stringify(completion['choices']).length;
  // The upstream's own text with `model` edited in place (its bytes and field order kept), and
  // its parsed object to match.
  const edited = editChunkText(text, completion, { model: publicModel });
  completion['model'] = publicModel;
  const ran = servedTierRun(completion['service_tier']);
  return { ok: true, body: completion, text: edited, usage: usage ?? undefined, deliveredChars, ...(ran ? { ran } : {}) };
}
