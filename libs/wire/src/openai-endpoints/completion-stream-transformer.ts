import { upstreamError } from '../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../hub/upstream-adapter';
import { isJsonObject, isNumber, isString } from '../json/json-checks';
import { editChunkText } from '../openai-chat/upstream/edit-chunk-text';
import { mapOpenAiStreamError } from '../openai-chat/upstream/openai-error';
import { readUsage } from '../openai-chat/upstream/read-openai-chunk';
import { DeliveredText } from '../hub/delivered-text';

interface CompletionChunkFacts {
  choiceCount: number;
  finished: boolean;
  usage: ReportedUsage | null | undefined;
  error: unknown;
}

const isLoose = (value: unknown, check: (value: unknown) => boolean) => value === null || value === undefined || check(value);

/**
 * The parts of a streamed `text_completion` the relay reads — choices' text and finish reasons,
 * usage, an in-stream error — or undefined when the event does not have that shape.
 */
function readCompletionChunk(json: unknown, deliver: (text: string) => void): CompletionChunkFacts | undefined {
  if (!isJsonObject(json)) return undefined;
  const usage = readUsage(json['usage']);
  if (usage === false) return undefined;
  const error = json['error'];
  if (error !== undefined && !isJsonObject(error) && typeof error !== 'string') return undefined;
  const choices = json['choices'];
  if (choices !== undefined && !Array.isArray(choices)) return undefined;
  let finished = false;
  for (const choice of choices ?? []) {
    if (!isJsonObject(choice) || !isLoose(choice['index'], isNumber) || !isLoose(choice['finish_reason'], isString)) return undefined;
    if (!isLoose(choice['text'], isString)) return undefined;
    if (choice['finish_reason']) finished = true;
    const text = choice['text'];
    if (typeof text === 'string' && text !== '') deliver(text);
  }
  return { choiceCount: choices?.length ?? 0, finished, usage, error };
}

/**
 * An OpenAI-compatible `/completions` stream relayed as it came, like a chat stream
 * (OpenAiStreamTransformer): `model` set to the caller's name, usage captured (the relay asked
 * for it) and its chunk removed when the caller did not ask, an in-stream error one error step.
 */
export class CompletionStreamTransformer implements StreamTransformer {
  usage: ReportedUsage | undefined;
  private sawFinishReason = false;
  private sawDone = false;
  private readonly deliveredSoFar = new DeliveredText();

  constructor(private readonly options: StreamTransformerOptions) {}

  get deliveredChars(): number {
    return this.deliveredSoFar.chars;
  }

  get deliveredText(): string {
    return this.deliveredSoFar.text;
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

  private readonly deliver = (text: string): void => {
    this.deliveredSoFar.add(text);
  };

  private transformData(data: string): StreamStep | undefined {
    if (data === '[DONE]') {
      this.sawDone = true;
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return { kind: 'error', error: upstreamError('The upstream provider sent a malformed stream event.', 'bad_response') };
    }
    const chunk = readCompletionChunk(json, this.deliver);
    if (!chunk) return { kind: 'error', error: upstreamError('The upstream provider sent an unexpected stream event.', 'bad_response') };
    if (chunk.error !== undefined) return { kind: 'error', error: mapOpenAiStreamError(chunk.error, this.options.secrets) };
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.finished) this.sawFinishReason = true;
    const { callerWantsUsage, publicModel } = this.options;
    if (!callerWantsUsage && chunk.choiceCount === 0 && chunk.usage) return undefined;
    return { kind: 'chunk', json: editChunkText(data, json as Record<string, unknown>, { model: publicModel, dropUsage: !callerWantsUsage }) };
  }
}
