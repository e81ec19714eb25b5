import { upstreamError } from '../../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { servedTierRun, type PassthroughRun } from '../../passthrough/passthrough-carriage';
import { ContentChunkFrame } from './content-chunk-frame';
import { editChunkText } from './edit-chunk-text';
import { mapOpenAiStreamError } from './openai-error';
import { readOpenAiChunk } from './read-openai-chunk';
import { DeliveredText } from '../../hub/delivered-text';
import { isJsonObject } from '../../json/json-checks';

/**
 * Upstream SSE `data` payloads → what the caller receives: `model` set to the caller's name,
 * usage captured for accounting and removed when the caller did not ask for it, an in-stream
 * error turned into one error step. Framing is the caller's job (relay/sse.ts).
 */
export class OpenAiStreamTransformer implements StreamTransformer {
  usage: ReportedUsage | undefined;
  sawFinishReason = false;
  sawDone = false;
  private readonly deliveredSoFar = new DeliveredText();
  private servedTier: string | undefined;
  /** The frame of this stream's text chunks, once one was read in full (content-chunk-frame.ts). */
  private frame: ContentChunkFrame | undefined;

  get deliveredChars(): number {
    return this.deliveredSoFar.chars;
  }

  get deliveredText(): string {
    return this.deliveredSoFar.text;
  }

  private readonly deliver = (text: string): void => {
    this.deliveredSoFar.add(text);
  };
  private readonly publicModel: string;
  private readonly callerWantsUsage: boolean;
  private readonly secrets: readonly string[];

  constructor(options: StreamTransformerOptions) {
    this.publicModel = options.publicModel;
    this.callerWantsUsage = options.callerWantsUsage;
    this.secrets = options.secrets;
  }

  /** The tier the chunks say served the answer (Chat Completions runs no hosted tools of its own to count). */
  get ran(): PassthroughRun | undefined {
    return servedTierRun(this.servedTier);
  }

  /** Some OpenAI-compatible servers end without [DONE]; a finish reason is as good. */
  get complete(): boolean {
    return this.sawDone || this.sawFinishReason;
  }

  transform(event: SseEvent): StreamStep[] {
    const step = this.transformData(event.data);
    return step ? [step] : [];
  }

  finish(): StreamStep[] {
    return [];
  }

  private transformData(data: string): StreamStep | undefined {
    if (data === '[DONE]') {
      this.sawDone = true;
      return undefined;
    }
    // A text chunk in the frame of one already read in full: its text, and the frame edited around it.
    const framed = this.frame?.match(data);
    if (framed) {
      if (framed.content !== '') this.deliver(framed.content);
      return { kind: 'chunk', json: framed.edited };
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return { kind: 'error', error: upstreamError('The upstream provider sent a malformed stream event.', 'bad_response') };
    }
    const partsBefore = this.deliveredSoFar.pieces;
    const chunk = readOpenAiChunk(json, this.deliver);
    if (!chunk) {
      return { kind: 'error', error: upstreamError('The upstream provider sent an unexpected stream event.', 'bad_response') };
    }
    if (chunk.error !== undefined) return { kind: 'error', error: mapOpenAiStreamError(chunk.error, this.secrets) };
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.serviceTier !== undefined) this.servedTier = chunk.serviceTier;
    if (chunk.finished) this.sawFinishReason = true;
    if (!this.callerWantsUsage && chunk.choiceCount === 0 && chunk.usage) return undefined;
    // The upstream's own text, edited in place where needed: its field order is kept as sent.
    const edits = { model: this.publicModel, dropUsage: !this.callerWantsUsage };
    const edited = editChunkText(data, json as Record<string, unknown>, edits);
    this.frame = chunk.choiceCount === 1 && !chunk.finished && !chunk.usage ? this.frameAfter(data, edited, json, partsBefore) : undefined;
    return { kind: 'chunk', json: edited };
  }

  /**
   * The frame of the text chunks to come, from a one-choice chunk with no finish, usage or error:
   * a plain text chunk (its text the only thing delivered) is the frame around that text; a chunk
   * that delivered nothing (the role's, first in every answer) is the frame around its delta.
   */
  private frameAfter(data: string, edited: string, json: unknown, partsBefore: number): ContentChunkFrame | undefined {
    const delivered = this.deliveredSoFar.pieces - partsBefore;
    if (delivered === 1) return ContentChunkFrame.learn(data, edited, this.deliveredSoFar.lastPiece);
    if (delivered !== 0) return undefined;
    // readOpenAiChunk checked it: an object with one choice, itself an object.
    const delta = ((json as { choices: unknown[] }).choices[0] as Record<string, unknown>)['delta'];
    return isJsonObject(delta) ? ContentChunkFrame.learnAfter(data, edited, delta) : undefined;
  }
}
