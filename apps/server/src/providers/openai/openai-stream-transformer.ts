import { upstreamError } from '../../errors/relay-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../provider-adapter';
import { OpenAiStreamEventSchema } from './openai-api';
import { mapOpenAiStreamError } from './openai-error';

/**
 * Upstream SSE `data` payloads → what the caller receives: `model` set to the caller's name,
 * usage captured for accounting and removed when the caller did not ask for it, an in-stream
 * error turned into one error step. Framing is the caller's job (relay/sse.ts).
 */
export class OpenAiStreamTransformer implements StreamTransformer {
  usage: ReportedUsage | undefined;
  deliveredChars = 0;
  sawFinishReason = false;
  sawDone = false;
  private readonly deliveredParts: string[] = [];

  get deliveredText(): string {
    return this.deliveredParts.join('');
  }

  private deliver(text: string): void {
    this.deliveredChars += text.length;
    this.deliveredParts.push(text);
  }
  private readonly publicModel: string;
  private readonly callerWantsUsage: boolean;
  private readonly secrets: readonly string[];

  constructor(options: StreamTransformerOptions) {
    this.publicModel = options.publicModel;
    this.callerWantsUsage = options.callerWantsUsage;
    this.secrets = options.secrets;
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
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return { kind: 'error', error: upstreamError('The upstream provider sent a malformed stream event.', 'bad_response') };
    }
    const parsed = OpenAiStreamEventSchema.safeParse(json);
    if (!parsed.success) {
      return { kind: 'error', error: upstreamError('The upstream provider sent an unexpected stream event.', 'bad_response') };
    }
    const event = parsed.data;
    if (event.error !== undefined) return { kind: 'error', error: mapOpenAiStreamError(event.error, this.secrets) };

    if (event.usage) {
      this.usage = { promptTokens: event.usage.prompt_tokens, completionTokens: event.usage.completion_tokens };
    }
    const choices = event.choices ?? [];
    for (const choice of choices) {
      if (choice.finish_reason) this.sawFinishReason = true;
      const delta = choice.delta;
      if (!delta) continue;
      if (delta.content) this.deliver(delta.content);
      for (const call of delta.tool_calls ?? []) if (call.function?.arguments) this.deliver(call.function.arguments);
    }

    // Edit the upstream's own object, not zod's copy, so its field order is kept as sent.
    const out = json as Record<string, unknown>;
    out['model'] = this.publicModel;
    if (!this.callerWantsUsage) {
      if (choices.length === 0 && event.usage) return undefined;
      delete out['usage'];
    }
    return { kind: 'chunk', json: JSON.stringify(out) };
  }
}
