import type { NativeAdapter } from '../../hub/native-adapter';
import { nativePassthroughAdapter, withModelField } from '../../hub/native-passthrough-adapter';
import { trimBaseUrl } from '../../hub/native-request-body';
import { convertGeminiUsage } from '../upstream/convert-gemini-usage';
import { GeminiUsageMetadataSchema } from '../gemini-api';
import { mapGeminiErrorResponse } from '../upstream/gemini-error';
import { GeminiPassthroughStream } from './gemini-passthrough-stream';
import { tallyGenerateContentRun } from './tally-generate-content-run';
import { geminiAuthHeaders } from '../../providers/provider-auth';

/** `{base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a stream. */
export function geminiMethodUrl(baseUrl: string, upstreamModel: string, stream: boolean): string {
  const model = encodeURIComponent(upstreamModel.replace(/^models\//, ''));
  return `${trimBaseUrl(baseUrl)}/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/**
 * A Gemini caller on a `gemini` channel: `POST {base_url}/models/{upstream model}:generateContent`
 * (`:streamGenerateContent?alt=sse` for a stream) with the caller's own body, the channel's key in
 * `x-goog-api-key` (never in the URL, where logs would keep it). The answer keeps every part and
 * field; only `modelVersion` is the caller's name again. Usage is read from `usageMetadata`.
 */
export const geminiNativeAdapter: NativeAdapter = nativePassthroughAdapter({
  url: geminiMethodUrl,
  headers: ({ key }) => geminiAuthHeaders(key),
  modelIn: 'url',
  answerName: 'answer',
  withPublicModel: withModelField('modelVersion'),
  usage: (answer) => {
    const usage = GeminiUsageMetadataSchema.safeParse(answer['usageMetadata']);
    return usage.success && answer['usageMetadata'] !== undefined ? convertGeminiUsage(usage.data).reported : undefined;
  },
  tally: tallyGenerateContentRun,
  stream: (options) => new GeminiPassthroughStream(options),
  mapErrorResponse: mapGeminiErrorResponse,
});
