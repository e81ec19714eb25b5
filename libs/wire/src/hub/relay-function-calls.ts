import type { ChatCompletionRequest, Message } from '@chat-relay/contract';
import { isJsonObject, isNumber, isString, type JsonObject } from '../json/json-checks';
import { ToolCallAssembler, type AssembledToolCall } from './tool-call-assembler';

/** A call of the model's to the function the relay answers itself. */
export interface RelayFunctionCall {
  id: string;
  arguments: string;
}

interface Slot extends AssembledToolCall {
  /** Undecided until the call's name comes. */
  own?: boolean;
}

/** Usage objects of several model calls added up, field by field (nested token details too). */
export function sumChatUsage(total: JsonObject | undefined, usage: JsonObject): JsonObject {
  if (!total) return usage;
  const sum: JsonObject = { ...total };
  for (const [key, value] of Object.entries(usage)) {
    const before = sum[key];
    if (isNumber(value) && isNumber(before)) sum[key] = before + value;
    else if (isJsonObject(value) && isJsonObject(before)) sum[key] = sumChatUsage(before, value);
    else if (before === undefined || before === null) sum[key] = value;
  }
  return sum;
}

/**
 * One model call of a streamed answer in which the relay answers a function itself (a hosted web
 * search): its hub chunks with the calls of that function taken out (kept here, with the text
 * the model wrote beside them) and the usage taken out (added up over the calls, given back once
 * at the end of the last). Pure; `nextCall()` starts the next model call of the same answer.
 */
export class RelayFunctionCalls {
  private calls = new ToolCallAssembler<Slot>(() => ({ id: '', name: '', args: '' }));
  private slots: Slot[] = [];
  /** The content text of this model call. */
  text = '';
  private usage: JsonObject | undefined;

  constructor(private readonly functionName: string) {}

  /** This model call's calls of the relay's function, in order. */
  get own(): RelayFunctionCall[] {
    return this.slots.filter((slot) => slot.own === true).map((slot) => ({ id: slot.id, arguments: slot.args }));
  }

  /** Whether the model also called functions of the caller's in this model call. */
  get others(): boolean {
    return this.slots.some((slot) => slot.own === false);
  }

  /** Usage of every model call so far, added up. */
  get totalUsage(): JsonObject | undefined {
    return this.usage;
  }

  /** A hub chunk (JSON) as the caller's bridge should see it: the same text when nothing is taken, undefined when nothing is left. */
  take(chunkJson: string): string | undefined {
    let chunk: unknown;
    try {
      chunk = JSON.parse(chunkJson);
    } catch {
      return chunkJson;
    }
    if (!isJsonObject(chunk)) return chunkJson;
    let changed = false;
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    if (isJsonObject(chunk['usage'])) {
      // A usage chunk (no choices), its usage taken: nothing left to say.
      if (choices.length === 0) {
        this.usage = sumChatUsage(this.usage, chunk['usage']);
        return undefined;
      }
      this.usage = sumChatUsage(this.usage, chunk['usage']);
      delete chunk['usage'];
      changed = true;
    }
    for (const choice of choices) {
      if (!isJsonObject(choice) || !isJsonObject(choice['delta'])) continue;
      const delta = choice['delta'];
      if (isString(delta['content'])) this.text += delta['content'];
      const toolCalls = delta['tool_calls'];
      if (!Array.isArray(toolCalls)) continue;
      const kept = toolCalls.filter((call) => !isJsonObject(call) || !this.isOwn(call));
      if (kept.length === toolCalls.length) continue;
      changed = true;
      if (kept.length > 0) delta['tool_calls'] = kept;
      else delete delta['tool_calls'];
    }
    return changed ? JSON.stringify(chunk) : chunkJson;
  }

  /** The usage of every model call as one last hub chunk, for the end of the answer. */
  usageChunk(model: string): string | undefined {
    return this.usage ? JSON.stringify({ id: 'usage', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: this.usage }) : undefined;
  }

  /** The next model call of the same answer: its calls and text are its own, the usage adds up. */
  nextCall(): void {
    this.calls = new ToolCallAssembler<Slot>(() => ({ id: '', name: '', args: '' }));
    this.slots = [];
    this.text = '';
  }

  private isOwn(delta: JsonObject): boolean {
    const { call, started } = this.calls.add(delta);
    if (started) this.slots.push(call);
    if (call.own === undefined && call.name !== '') call.own = call.name === this.functionName;
    return call.own === true;
  }
}

/**
 * The request for the next model call of an answer in which the relay answered its function: the
 * model's turn (its text and its calls of the function) and one tool message per call with the
 * relay's result. A forced choice of the function (or 'required') becomes 'auto' — it has been
 * called; with `last`, 'none': the model must now answer (the bound on the relay's calls).
 */
export function withRelayFunctionResults(
  request: ChatCompletionRequest,
  turn: { text: string; functionName: string; calls: readonly RelayFunctionCall[]; results: readonly string[] },
  last: boolean,
): ChatCompletionRequest {
  const ids = turn.calls.map((call, index) => call.id || `call_relay_${request.messages.length}_${index}`);
  const assistant: Message = {
    role: 'assistant',
    content: turn.text === '' ? null : turn.text,
    tool_calls: turn.calls.map((call, index) => ({ id: ids[index] ?? '', type: 'function', function: { name: turn.functionName, arguments: call.arguments } })),
  };
  const results: Message[] = turn.calls.map((_call, index) => ({ role: 'tool', tool_call_id: ids[index] ?? '', content: turn.results[index] ?? '' }));
  const choice = request.tool_choice;
  const forced = choice === 'required' || (typeof choice === 'object' && choice.type === 'function' && choice.function.name === turn.functionName);
  const toolChoice = last ? { tool_choice: 'none' as const } : forced ? { tool_choice: 'auto' as const } : {};
  return { ...request, messages: [...request.messages, assistant, ...results], ...toolChoice };
}
