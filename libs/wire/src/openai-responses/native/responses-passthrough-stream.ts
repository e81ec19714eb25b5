import { upstreamError, type RelayError } from '../../errors/relay-error';
import { redactUpstreamError } from '../../errors/redact-upstream-error';
import type { ReportedUsage, SseEvent, StreamStep, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { isJsonObject, isNumber, isString, type JsonObject } from '../../json/json-checks';
import { mapOpenAiStreamError } from '../../openai-chat/upstream/openai-error';
import type { PassthroughRun } from '../../passthrough/passthrough-carriage';
import { readResponsesUsage } from './read-responses-usage';
import { ResponsesRunTally } from './tally-responses-run';

/** The lifecycle events: each carries the whole Response object, `model` included. */
const RESPONSE_EVENTS = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.completed',
  'response.incomplete',
  'response.failed',
]);

/** The last event of a response: nothing follows it, its Response holds the final usage. */
const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The events whose `delta` is text delivered to the caller: answer, refusal, tool input, reasoning. */
const DELTA_EVENTS = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
]);

/** The events that carry one whole output item: what the provider ran is read from them. */
const ITEM_EVENTS = new Set(['response.output_item.added', 'response.output_item.done']);

const badEvent = (message: string): StreamStep => ({ kind: 'error', error: upstreamError(message, 'bad_response') });

/**
 * A Responses stream relayed to a Responses caller: every event goes out as it came — the same
 * name, the same data text — except the lifecycle events, whose `response.model` becomes the name
 * the caller used. Usage is read from the terminal event's Response (`response.completed`,
 * `response.incomplete`, `response.failed`), which completes the answer; an upstream `error`
 * event ends it as a failure, as does an event whose data is not a JSON object. Before the
 * terminal event no usage is known (the lifecycle events carry `usage: null`): a cut stream
 * leaves the relay to count the prompt and what was delivered.
 */
export class ResponsesPassthroughStream implements StreamTransformer {
  private ended = false;
  private terminal = false;
  private finalUsage: ReportedUsage | undefined;
  private firstResponseId: string | undefined;
  private sequence: number | undefined;
  private readonly deltas: string[] = [];
  private deliveredLength = 0;
  private readonly tally = new ResponsesRunTally();

  /** `onResponseId` is told the response's id as soon as an event carries it, before that event is relayed. */
  constructor(
    private readonly options: StreamTransformerOptions,
    private readonly onResponseId?: (id: string) => void,
  ) {}

  get complete(): boolean {
    return this.terminal;
  }

  get usage(): ReportedUsage | undefined {
    return this.finalUsage;
  }

  get deliveredChars(): number {
    return this.deliveredLength;
  }

  /** The text, refusals, tool input and reasoning delivered, joined only when asked. */
  get deliveredText(): string {
    return this.deltas.join('');
  }

  /** Hosted calls seen so far (a cut stream's too), the tier and the items created. */
  get ran(): PassthroughRun {
    return this.tally.run;
  }

  /** The id of the response being streamed, once an event has carried it: what the caller will retrieve it by. */
  get responseId(): string | undefined {
    return this.firstResponseId;
  }

  /** The `sequence_number` of the last event relayed (undefined before one, or from servers that send none). */
  get lastSequenceNumber(): number | undefined {
    return this.sequence;
  }

  transform(sse: SseEvent): StreamStep[] {
    if (this.ended) return [];
    // OpenAI sends no [DONE]; a compatible server that does has said nothing the caller's SDK would parse.
    if (sse.data.trim() === '[DONE]') return [];
    let head: unknown;
    try {
      head = JSON.parse(sse.data);
    } catch {
      return this.stop(badEvent('The upstream provider sent a malformed stream event.'));
    }
    if (!isJsonObject(head)) return this.stop(badEvent('The upstream provider sent a malformed stream event.'));
    const type = isString(head['type']) ? head['type'] : sse.event;
    if (type === 'error') return this.stop({ kind: 'error', error: this.streamError(head) });
    const name = sse.event ?? type ?? 'message';
    if (type !== undefined && RESPONSE_EVENTS.has(type)) return this.lifecycle(type, head, name, sse.data);
    if (type !== undefined && ITEM_EVENTS.has(type)) this.tally.item(head['item']);
    if (type !== undefined && DELTA_EVENTS.has(type)) {
      const delta = head['delta'];
      if (isString(delta)) {
        this.deltas.push(delta);
        this.deliveredLength += delta.length;
      }
    }
    return this.relay(head, { kind: 'chunk', event: name, json: sse.data });
  }

  finish(): StreamStep[] {
    return [];
  }

  /**
   * The stream broke after it started (the upstream failed or was cut): the Responses dialect's
   * own `error` event, numbered after the last one relayed, and nothing after it.
   */
  fail(error: RelayError): StreamStep[] {
    this.ended = true;
    const { code, message, param } = redactUpstreamError(error, this.options.secrets);
    this.sequence = (this.sequence ?? -1) + 1;
    const json = JSON.stringify({ type: 'error', code, message, param, sequence_number: this.sequence });
    return [{ kind: 'chunk', event: 'error', json }];
  }

  /** A lifecycle event: the response id and, at the end, the usage read; `response.model` made the caller's. */
  private lifecycle(type: string, head: JsonObject, name: string, data: string): StreamStep[] {
    const response = head['response'];
    if (!isJsonObject(response)) return this.stop(badEvent(`The upstream provider sent a '${type}' event without its response.`));
    if (this.firstResponseId === undefined && isString(response['id'])) {
      this.firstResponseId = response['id'];
      this.onResponseId?.(response['id']);
    }
    if (TERMINAL_EVENTS.has(type)) {
      this.terminal = true;
      this.ended = true;
      this.finalUsage = readResponsesUsage(response['usage']);
      this.tally.response(response);
    }
    if (!('model' in response) || response['model'] === this.options.publicModel) return this.relay(head, { kind: 'chunk', event: name, json: data });
    response['model'] = this.options.publicModel;
    return this.relay(head, { kind: 'chunk', event: name, json: JSON.stringify(head) });
  }

  /** One event relayed: its sequence number is the last the caller has seen. */
  private relay(head: JsonObject, step: StreamStep): StreamStep[] {
    const sequence = head['sequence_number'];
    if (isNumber(sequence)) this.sequence = sequence;
    return [step];
  }

  /**
   * An upstream `error` event, keys redacted. OpenAI nests the error (`{type:"error", error:{type,
   * code, message, param}}`); its API reference puts `code`, `message` and `param` on the event.
   */
  private streamError(head: JsonObject): RelayError {
    const nested = head['error'];
    const error = isJsonObject(nested) ? nested : { code: head['code'], message: head['message'], param: head['param'] };
    return mapOpenAiStreamError(error, this.options.secrets);
  }

  private stop(step: StreamStep): StreamStep[] {
    this.ended = true;
    return [step];
  }
}
