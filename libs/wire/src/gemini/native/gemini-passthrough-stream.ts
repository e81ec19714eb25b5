import { upstreamError } from '../../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { isJsonObject, type JsonObject } from '../../json/json-checks';
import type { PassthroughRun } from '../../passthrough/passthrough-carriage';
import { convertGeminiUsage } from '../upstream/convert-gemini-usage';
import { GeminiErrorBodySchema, GeminiUsageMetadataSchema, type GeminiUsageMetadata } from '../gemini-api';
import { mapGeminiStreamError } from '../upstream/gemini-error';
import { GenerateContentRunTally } from './tally-generate-content-run';

const badEvent = (message: string): StreamStep => ({ kind: 'error', error: upstreamError(message, 'bad_response') });

/**
 * A Gemini stream relayed to a Gemini caller: every event goes out as it came, as the same
 * GenerateContentResponse, except that `modelVersion` becomes the name the caller used (an
 * event whose modelVersion already is that name goes out as the very same text). Usage is read
 * from the last `usageMetadata` (Gemini's counts are cumulative); the answer is complete once
 * every candidate seen has a finishReason, or the prompt was blocked. An upstream error object
 * ends it as a failure (the relay writes it in the caller's dialect), as does an event that is
 * not a JSON object.
 */
export class GeminiPassthroughStream implements StreamTransformer {
  private ended = false;
  private blocked = false;
  private metadata: GeminiUsageMetadata | undefined;
  private readonly candidates = new Map<number, boolean>();
  private readonly delivered: string[] = [];
  private deliveredLength = 0;
  private readonly tally = new GenerateContentRunTally();

  constructor(private readonly options: StreamTransformerOptions) {}

  /** Grounded prompts, code runs and URL fetches seen so far (a cut stream's too). */
  get ran(): PassthroughRun {
    return this.tally.run;
  }

  get complete(): boolean {
    return this.blocked || (this.candidates.size > 0 && [...this.candidates.values()].every((finished) => finished));
  }

  /** Gemini's counts; before the end only the prompt's is final, so the rest is counted from what was delivered. */
  get usage(): ReportedUsage | undefined {
    if (!this.metadata) return undefined;
    const { reported } = convertGeminiUsage(this.metadata);
    return this.complete ? reported : { ...reported, completionTokens: 0, completionUnknown: true };
  }

  get deliveredChars(): number {
    return this.deliveredLength;
  }

  get deliveredText(): string {
    return this.delivered.join('');
  }

  transform(sse: SseEvent): StreamStep[] {
    if (this.ended) return [];
    let event: unknown;
    try {
      event = JSON.parse(sse.data);
    } catch {
      return this.stopWith(badEvent('The upstream provider sent a malformed stream event.'));
    }
    if (!isJsonObject(event)) return this.stopWith(badEvent('The upstream provider sent an unexpected stream event.'));
    const error = GeminiErrorBodySchema.safeParse(event);
    if (error.success) return this.stopWith({ kind: 'error', error: mapGeminiStreamError(error.data.error, this.options.secrets) });
    this.read(event);
    if (event['modelVersion'] === this.options.publicModel) return [{ kind: 'chunk', json: sse.data }];
    return [{ kind: 'chunk', json: JSON.stringify({ ...event, modelVersion: this.options.publicModel }) }];
  }

  finish(): StreamStep[] {
    return [];
  }

  /** Usage, which candidates finished, and the text and call arguments delivered. */
  private read(event: JsonObject): void {
    this.tally.response(event);
    const usage = GeminiUsageMetadataSchema.safeParse(event['usageMetadata']);
    if (usage.success) this.metadata = usage.data;
    const feedback = event['promptFeedback'];
    if (isJsonObject(feedback) && typeof feedback['blockReason'] === 'string') this.blocked = true;
    const candidates = Array.isArray(event['candidates']) ? event['candidates'] : [];
    candidates.forEach((candidate, position) => {
      if (!isJsonObject(candidate)) return;
      const index = typeof candidate['index'] === 'number' ? candidate['index'] : position;
      const finished = this.candidates.get(index) === true || typeof candidate['finishReason'] === 'string';
      this.candidates.set(index, finished);
      const content = candidate['content'];
      const parts = isJsonObject(content) && Array.isArray(content['parts']) ? content['parts'] : [];
      for (const part of parts) {
        if (!isJsonObject(part)) continue;
        const piece = typeof part['text'] === 'string' ? part['text'] : isJsonObject(part['functionCall']) ? JSON.stringify(part['functionCall']['args'] ?? {}) : '';
        this.delivered.push(piece);
        this.deliveredLength += piece.length;
      }
    });
  }

  private stopWith(step: StreamStep): StreamStep[] {
    this.ended = true;
    return [step];
  }
}
