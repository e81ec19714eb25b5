import { upstreamError } from '../../errors/relay-error';
import type { NativeAdapter, NativeBuildArgs } from '../../hub/native-adapter';
import { trimBaseUrl } from '../../hub/native-request-body';
import { isJsonObject } from '../../json/json-checks';
import { convertGeminiUsage } from '../upstream/convert-gemini-usage';
import { GeminiUsageMetadataSchema } from '../gemini-api';
import { mapGeminiErrorResponse } from '../upstream/gemini-error';
import { GeminiPassthroughStream } from './gemini-passthrough-stream';
import { tallyGenerateContentRun } from './tally-generate-content-run';

/** `{base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a stream. */
export function geminiMethodUrl(baseUrl: string, upstreamModel: string, stream: boolean): string {
  const model = encodeURIComponent(upstreamModel.replace(/^models\//, ''));
  return `${trimBaseUrl(baseUrl)}/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** The model is in the URL, not the body: the caller's bytes go as they came, else the request (an assistant applied) serialised. */
const bodyOf = ({ body, rawBody }: Pick<NativeBuildArgs, 'body' | 'rawBody'>): string | Buffer => rawBody ?? JSON.stringify(body);

/**
 * A Gemini caller on a `gemini` channel: `POST {base_url}/models/{upstream model}:generateContent`
 * (`:streamGenerateContent?alt=sse` for a stream) with the caller's own body, the channel's key in
 * `x-goog-api-key` (never in the URL, where logs would keep it). The answer keeps every part and
 * field; only `modelVersion` is the caller's name again. Usage is read from `usageMetadata`.
 */
export const geminiNativeAdapter: NativeAdapter = {
  buildRequest: (args) => ({
    url: geminiMethodUrl(args.channel.baseUrl, args.upstreamModel, args.stream),
    headers: {
      'x-goog-api-key': args.key,
      'content-type': 'application/json',
      accept: args.stream ? 'text/event-stream' : 'application/json',
    },
    body: bodyOf(args),
  }),

  convertResponse(text, publicModel) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isJsonObject(parsed)) return { ok: false, error: upstreamError('The upstream provider sent a malformed answer.', 'bad_response') };
    const usage = GeminiUsageMetadataSchema.safeParse(parsed['usageMetadata']);
    const sameModel = parsed['modelVersion'] === publicModel;
    const body = sameModel ? parsed : { ...parsed, modelVersion: publicModel };
    return {
      ok: true,
      body,
      text: sameModel ? text : JSON.stringify(body),
      usage: usage.success && parsed['usageMetadata'] !== undefined ? convertGeminiUsage(usage.data).reported : undefined,
      deliveredChars: text.length,
      ran: tallyGenerateContentRun(parsed),
    };
  },

  createStreamTransformer: (options) => new GeminiPassthroughStream(options),
  mapErrorResponse: mapGeminiErrorResponse,
};
