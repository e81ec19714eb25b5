import type { ChatCompletion, ChatCompletionRequest, ResponseWebSearchCall } from '@chat-relay/contract';
import {
  RelayFunctionCalls,
  sumChatUsage,
  withRelayFunctionResults,
  type ChunkTransformer,
  type ConvertedCompletion,
  type RelayError,
  type RelayFunctionCall,
  type ReportedUsage,
  type SseEvent,
  type StreamStep,
  type StreamTransformer,
} from '@chat-relay/wire';
import type { AbortLike } from '../core/caller-gone';

/**
 * A function the relay answers itself on a bridged attempt (a Responses caller's hosted web
 * search): when the model calls it — and only it — the relay runs the calls and asks the model
 * again with their results, on the same channel and key, until the model answers otherwise or
 * the function's bound is reached (the last request then asks for no more calls). One answer to
 * the caller, one usage row: the model calls' usage added up (pipeline/account-usage).
 */
export interface RelayFunction {
  /** The function's name as the model is offered it (one the caller's functions do not have). */
  readonly name: string;
  /** No more calls may run in this answer. */
  readonly exhausted: boolean;
  /** Runs the model's calls, in order: each call's result for the model. `show` is told each item as it starts and as it ends. */
  run(calls: readonly RelayFunctionCall[], signal: AbortLike, show?: (item: ResponseWebSearchCall) => void): Promise<string[]>;
  /** A whole model call whose calls the relay runs (not streamed): what the model said in it is part of the answer. */
  modelCall?(completion: ChatCompletion): void;
  /** A whole answer starts on a channel (another is tried after a failure): what an earlier try said is not part of it. */
  startAnswer?(): void;
}

/** The next model call of the loop: its upstream answer's text (whole), or its body (streamed). Throws the upstream's error, mapped. */
export interface NextModelCall {
  whole(request: ChatCompletionRequest): Promise<string>;
  stream(request: ChatCompletionRequest): Promise<{ upstream: AsyncIterator<Buffer>; first: Buffer }>;
}

/** Two model calls' usage as one. */
export function addReportedUsage(total: ReportedUsage | undefined, usage: ReportedUsage | undefined): ReportedUsage | undefined {
  if (!total || !usage) return total ?? usage;
  const add = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const sum: ReportedUsage = { promptTokens: total.promptTokens + usage.promptTokens, completionTokens: total.completionTokens + usage.completionTokens };
  const cacheRead = add(total.cacheReadTokens, usage.cacheReadTokens);
  const cacheWrite = add(total.cacheWriteTokens, usage.cacheWriteTokens);
  const audio = add(total.audioOutputTokens, usage.audioOutputTokens);
  if (cacheRead !== undefined) sum.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) sum.cacheWriteTokens = cacheWrite;
  if (audio !== undefined) sum.audioOutputTokens = audio;
  if (total.completionUnknown || usage.completionUnknown) sum.completionUnknown = true;
  return sum;
}

/** A whole answer's calls: those of the relay's function, and whether the caller's functions were called too. */
function callsOf(completion: ChatCompletion, name: string): { own: RelayFunctionCall[]; others: boolean } {
  const calls = completion.choices[0]?.message.tool_calls ?? [];
  const own = calls.flatMap((call) => (call.type === 'function' && call.function.name === name ? [{ id: call.id, arguments: call.function.arguments }] : []));
  return { own, others: own.length < calls.length };
}

/** The answer without the calls of the relay's function (the caller never sees them). */
function withoutOwnCalls(completion: ChatCompletion, name: string): ChatCompletion {
  const [choice, ...rest] = completion.choices;
  const calls = choice?.message.tool_calls;
  if (!choice || !calls) return completion;
  const kept = calls.filter((call) => !(call.type === 'function' && call.function.name === name));
  const message = { ...choice.message, ...(kept.length > 0 ? { tool_calls: kept } : { tool_calls: undefined }) };
  return { ...completion, choices: [{ ...choice, message }, ...rest] };
}

/**
 * A whole (not streamed) answer through the loop: while the model calls the relay's function and
 * nothing else, the calls are run and the model asked again. The last answer, with every model
 * call's usage added up (its body's and the one the relay counts).
 */
export async function wholeThroughLoop(
  first: Extract<ConvertedCompletion, { ok: true }>,
  context: { request: ChatCompletionRequest; fn: RelayFunction; next: NextModelCall; convert(text: string): ConvertedCompletion; signal: AbortLike },
): Promise<ConvertedCompletion> {
  const { fn } = context;
  fn.startAnswer?.();
  let request = context.request;
  let converted = first;
  let usage = first.usage;
  let deliveredChars = first.deliveredChars;
  let bodyUsage = first.body['usage'] as Record<string, unknown> | undefined;
  for (;;) {
    const completion = converted.body as unknown as ChatCompletion;
    const { own, others } = callsOf(completion, fn.name);
    if (own.length === 0 || others || fn.exhausted) break;
    fn.modelCall?.(completion);
    const results = await fn.run(own, context.signal);
    const text = completion.choices[0]?.message.content ?? '';
    request = withRelayFunctionResults(request, { text: typeof text === 'string' ? text : '', functionName: fn.name, calls: own, results }, fn.exhausted);
    const next = context.convert(await context.next.whole(request));
    if (!next.ok) return next;
    converted = next;
    usage = addReportedUsage(usage, next.usage);
    deliveredChars += next.deliveredChars;
    const nextUsage = next.body['usage'] as Record<string, unknown> | undefined;
    bodyUsage = nextUsage ? sumChatUsage(bodyUsage, nextUsage) : bodyUsage;
  }
  const body = withoutOwnCalls(converted.body as unknown as ChatCompletion, fn.name) as unknown as Record<string, unknown>;
  // Not the upstream's own text any more: the body is what is sent.
  return { ok: true, body: bodyUsage ? { ...body, usage: bodyUsage } : body, usage, deliveredChars };
}

export interface LoopStreamOptions {
  fn: RelayFunction;
  request: ChatCompletionRequest;
  /** The first model call's upstream transformer (upstream events → hub chunks). */
  first: StreamTransformer;
  /** A fresh one for each later model call. */
  newCall(): StreamTransformer;
  /** The caller's side: hub chunks → the caller's events, one for the whole answer. */
  bridge: ChunkTransformer;
  next: NextModelCall;
  publicModel: string;
  signal: AbortLike;
}

/**
 * A streamed answer through the loop: each model call's hub chunks go to the caller's bridge with
 * the relay's calls taken out; when a model call ends having called only the relay's function,
 * the pump asks `next()`, which shows and runs the calls and opens the next model call — the
 * caller's stream goes on as one answer, its usage the sum (one chunk before the end).
 */
export class RelayFunctionStream implements StreamTransformer {
  private current: StreamTransformer;
  private readonly taken: RelayFunctionCalls;
  private request: ChatCompletionRequest;
  /** The relay's calls the current model call ended with, to run before the next. */
  private pending: RelayFunctionCall[] | undefined;
  private earlierUsage: ReportedUsage | undefined;
  private earlierText = '';
  private earlierChars = 0;
  readonly fail?: (error: RelayError) => StreamStep[];

  constructor(private readonly options: LoopStreamOptions) {
    this.current = options.first;
    this.taken = new RelayFunctionCalls(options.fn.name);
    this.request = options.request;
    const { bridge } = options;
    if (bridge.fail) this.fail = (error) => bridge.fail?.(error) ?? [];
  }

  transform(event: SseEvent): StreamStep[] {
    return this.through(this.current.transform(event));
  }

  finish(): StreamStep[] {
    const steps = this.through(this.current.finish());
    if (!this.current.complete) return steps;
    const own = this.taken.own;
    if (own.length > 0 && !this.taken.others && !this.options.fn.exhausted) {
      this.pending = own;
      return steps;
    }
    const usage = this.taken.usageChunk(this.options.publicModel);
    if (usage) steps.push(...this.options.bridge.transform(usage));
    return [...steps, ...this.options.bridge.finish()];
  }

  get complete(): boolean {
    return this.current.complete && this.pending === undefined;
  }

  get usage(): ReportedUsage | undefined {
    return addReportedUsage(this.earlierUsage, this.current.usage);
  }

  get deliveredChars(): number {
    return this.earlierChars + this.current.deliveredChars;
  }

  get deliveredText(): string {
    return this.earlierText + this.current.deliveredText;
  }

  /**
   * After a model call that ended with the relay's calls: they are shown (through `emit`) and
   * run, and the next model call opened — its body for the pump; undefined when there is none.
   */
  async next(emit: (steps: StreamStep[]) => void): Promise<{ upstream: AsyncIterator<Buffer>; first: Buffer } | undefined> {
    const calls = this.pending;
    if (!calls) return undefined;
    const { fn, bridge } = this.options;
    const show = (item: ResponseWebSearchCall) => emit(bridge.hostedSearch?.(item) ?? []);
    const results = await fn.run(calls, this.options.signal, show);
    this.request = withRelayFunctionResults(this.request, { text: this.taken.text, functionName: fn.name, calls, results }, fn.exhausted);
    const opened = await this.options.next.stream(this.request);
    this.earlierUsage = addReportedUsage(this.earlierUsage, this.current.usage);
    this.earlierText += this.current.deliveredText;
    this.earlierChars += this.current.deliveredChars;
    this.current = this.options.newCall();
    this.taken.nextCall();
    this.pending = undefined;
    return opened;
  }

  private through(steps: readonly StreamStep[]): StreamStep[] {
    return steps.flatMap((step) => {
      if (step.kind === 'error') return [step];
      const json = this.taken.take(step.json);
      return json === undefined ? [] : this.options.bridge.transform(json);
    });
  }
}
