import { isJsonObject, isNumber, isString, type JsonObject } from '../json/json-checks';

/** A tool call of the hub stream as its fragments come together. */
export interface AssembledToolCall {
  id: string;
  name: string;
  /** Every argument fragment received, in order (a custom tool's call: its input text). */
  args: string;
  /** A custom (freeform) tool's call (`type: 'custom'`, `custom: {name, input}`), not a function's. */
  custom?: boolean;
}

/** What one `tool_calls[]` delta did: the call it belongs to, its argument fragment, and whether it started the call. */
export interface ToolCallPiece<Call extends AssembledToolCall> {
  call: Call;
  /** `''` when the delta carried no arguments. */
  fragment: string;
  started: boolean;
}

const nonEmpty = (value: unknown): string => (isString(value) ? value : '');

/**
 * Gathers the hub stream's tool-call deltas (`choices[].delta.tool_calls[]`) into calls, by their
 * `index`. Every bridge that answers in another dialect reads tool calls this one way; what it
 * sends for them (a block, an item, a part at the end) stays its own. `newCall` makes the call,
 * with whatever the bridge keeps beside it (its block state, its output item).
 */
export class ToolCallAssembler<Call extends AssembledToolCall> {
  private readonly byPosition = new Map<number, Call>();

  constructor(private readonly newCall: () => Call) {}

  add(delta: JsonObject): ToolCallPiece<Call> {
    const position = isNumber(delta['index']) ? delta['index'] : 0;
    const id = nonEmpty(delta['id']);
    const custom = isJsonObject(delta['custom']) ? delta['custom'] : undefined;
    const fn = custom ?? (isJsonObject(delta['function']) ? delta['function'] : {});
    const fragment = nonEmpty(custom ? custom['input'] : fn['arguments']);
    let call = this.byPosition.get(position);
    let started = false;
    // A new id at a known index is a new call (servers that number every call 0).
    if (!call || (id !== '' && call.id !== '' && id !== call.id)) {
      call = this.newCall();
      this.byPosition.set(position, call);
      started = true;
    }
    if (call.id === '') call.id = id;
    if (custom || delta['type'] === 'custom') call.custom = true;
    // Names come whole; a server that repeats the name on later fragments must not double it.
    if (call.name === '') call.name = nonEmpty(fn['name']);
    call.args += fragment;
    return { call, fragment, started };
  }
}

/** A call with nothing beside it. */
export const plainToolCall = (): AssembledToolCall => ({ id: '', name: '', args: '' });
