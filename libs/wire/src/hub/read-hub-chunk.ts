import { upstreamError, type RelayError } from '../errors/relay-error';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { mapOpenAiStreamError } from '../openai-chat/upstream/openai-error';

/**
 * One hub chunk as a bridge's second stage reads it: the `chat.completion.chunk` object, or the
 * failure it stands for (not JSON, not an object, or an `error` an OpenAI-compatible upstream
 * sent in the stream).
 */
export function readHubChunk(chunkJson: string): { chunk: JsonObject; error?: undefined } | { error: RelayError } {
  let chunk: unknown;
  try {
    chunk = JSON.parse(chunkJson);
  } catch {
    return { error: upstreamError('The upstream provider sent a malformed stream event.', 'bad_response') };
  }
  if (!isJsonObject(chunk)) return { error: upstreamError('The upstream provider sent an unexpected stream event.', 'bad_response') };
  if (chunk['error'] !== undefined && chunk['error'] !== null) return { error: mapOpenAiStreamError(chunk['error'], []) };
  return { chunk };
}
