import { upstreamError } from '../errors/relay-error';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import type { PassthroughRun } from '../passthrough/passthrough-carriage';
import type { NativeAdapter, NativeBuildArgs } from './native-adapter';
import { nativeRequestBody } from './native-request-body';
import type { ReportedUsage, StreamTransformer, StreamTransformerOptions, UpstreamFailure } from './upstream-adapter';

/** What differs between the dialects a channel type speaks itself; the rest of a passthrough is the same. */
export interface NativePassthrough {
  /** The call's URL on the channel: for the upstream model, streamed or not. */
  url(baseUrl: string, upstreamModel: string, stream: boolean): string;
  /** The provider's key headers, with what it takes of the dialect's own headers as the caller sent them. */
  headers(args: Pick<NativeBuildArgs, 'key' | 'headers'>): Record<string, string>;
  /** Where the model name goes: swapped into the caller's body, or only into the URL (the body then goes as it came). */
  modelIn: 'body' | 'url';
  /** What a malformed answer is called in the error (`message`, `answer`, `response`). */
  answerName: string;
  /** The answer and its text naming the caller's model again. */
  withPublicModel(answer: JsonObject, text: string, publicModel: string): { body: JsonObject; text: string };
  /** The answer's usage, when it reports a readable one. */
  usage(answer: JsonObject): ReportedUsage | undefined;
  /** The hosted tool calls, served tier and created objects of a whole answer. */
  tally(answer: JsonObject): PassthroughRun;
  /** The dialect's passthrough stream: events relayed as they came, model rewritten, usage read. */
  stream(options: StreamTransformerOptions): StreamTransformer;
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}

/** A passthrough call's headers: the provider's own, JSON sent, the answer asked for as an event stream or JSON. */
export function nativeHeaders(dialect: Pick<NativePassthrough, 'headers'>, args: Pick<NativeBuildArgs, 'key' | 'headers'>, stream: boolean): Record<string, string> {
  return { ...dialect.headers(args), 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
}

/**
 * A channel type's adapter for a caller dialect it speaks itself: the caller's request goes
 * upstream as it came (model mapped), the answer keeps every field, only its model is the
 * caller's name again, and its usage and hosted tool calls are read on the way.
 */
export function nativePassthroughAdapter(dialect: NativePassthrough): NativeAdapter {
  return {
    buildRequest: (args) => ({
      url: dialect.url(args.channel.baseUrl, args.upstreamModel, args.stream),
      headers: nativeHeaders(dialect, args, args.stream),
      // The model in the URL: the caller's bytes as they came, else the request (an assistant applied) serialised.
      body: dialect.modelIn === 'body' ? nativeRequestBody(args) : (args.rawBody ?? JSON.stringify(args.body)),
    }),

    convertResponse(text, publicModel) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!isJsonObject(parsed)) return { ok: false, error: upstreamError(`The upstream provider sent a malformed ${dialect.answerName}.`, 'bad_response') };
      const answer = dialect.withPublicModel(parsed, text, publicModel);
      return { ok: true, body: answer.body, text: answer.text, usage: dialect.usage(parsed), deliveredChars: text.length, ran: dialect.tally(parsed) };
    },

    createStreamTransformer: (options) => dialect.stream(options),
    mapErrorResponse: dialect.mapErrorResponse,
  };
}

/**
 * The answer with `field` naming the caller's model, re-serialised when it did not already
 * (Messages' `model`, Gemini's `modelVersion`): the upstream's own text when it did.
 */
export const withModelField =
  (field: string) =>
  (answer: JsonObject, text: string, publicModel: string): { body: JsonObject; text: string } => {
    if (answer[field] === publicModel) return { body: answer, text };
    const body = { ...answer, [field]: publicModel };
    return { body, text: JSON.stringify(body) };
  };
