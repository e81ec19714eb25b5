import fc from 'fast-check';
import { bodyTransportArb } from './body-transport';
import { authArb, type FuzzCase, type FuzzContext, type KeyKind } from './fuzz-context';
import { deepNestingArb, hostileStringArb, hostileValueArb, POLLUTION_NODES, fieldEditsArb, type PathStep } from './hostile-values';
import { arr, fromValue, lit, obj, serialize, str, type JsonNode } from './json-text';


/** `root` with the value at `path` replaced; missing objects and array slots are created. */
export function setPath(root: JsonNode, path: readonly PathStep[], value: JsonNode): JsonNode {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  if (typeof step === 'number') {
    const items = root.kind === 'array' ? [...root.items] : [];
    while (items.length <= step) items.push(obj([]));
    items[step] = setPath(items[step] as JsonNode, rest, value);
    return arr(items);
  }
  const entries = root.kind === 'object' ? root.entries : [];
  const current = entries.find(([key]) => key === step)?.[1] ?? obj([]);
  return obj([...entries.filter(([key]) => key !== step), [step, setPath(current, rest, value)]]);
}

/** Every field of a chat request (and a few nested ones) that a hostile value may replace. */
export const CHAT_FIELD_PATHS: readonly PathStep[][] = [
  ['model'],
  ['messages'],
  ['messages', 0],
  ['messages', 0, 'role'],
  ['messages', 0, 'content'],
  ['messages', 0, 'content', 0],
  ['messages', 0, 'content', 0, 'text'],
  ['messages', 0, 'name'],
  ['messages', 1],
  ['messages', 1, 'tool_calls'],
  ['messages', 1, 'tool_calls', 0, 'function', 'arguments'],
  ['tools'],
  ['tools', 0],
  ['tools', 0, 'type'],
  ['tools', 0, 'function'],
  ['tools', 0, 'function', 'name'],
  ['tools', 0, 'function', 'parameters'],
  ['tools', 0, 'function', 'parameters', 'properties'],
  ['tool_choice'],
  ['tool_choice', 'function', 'name'],
  ['parallel_tool_calls'],
  ['functions'],
  ['function_call'],
  ['stream'],
  ['stream_options'],
  ['stream_options', 'include_usage'],
  ['response_format'],
  ['response_format', 'json_schema', 'schema'],
  ['temperature'],
  ['top_p'],
  ['frequency_penalty'],
  ['presence_penalty'],
  ['n'],
  ['seed'],
  ['stop'],
  ['max_tokens'],
  ['max_completion_tokens'],
  ['logit_bias'],
  ['logprobs'],
  ['top_logprobs'],
  ['user'],
  ['store'],
  ['metadata'],
  ['reasoning_effort'],
  ['service_tier'],
  ['__proto__'],
  ['constructor'],
  ['prototype'],
  ['x_unknown_field'],
];

/** Fields that feed money: extreme numbers there are the point. */
const MONEY_PATHS: readonly PathStep[][] = [['max_tokens'], ['max_completion_tokens'], ['n'], ['top_logprobs'], ['seed']];

/** A request the simulator answers: short, sometimes streamed, sometimes with a tool. */
const baseChatArb = (context: FuzzContext): fc.Arbitrary<JsonNode> =>
  fc
    .record({
      model: fc.constantFrom(context.model, context.model, context.model, `${context.model}-gizmo-${context.assistantId}`, 'no-such-model'),
      stream: fc.boolean(),
      tool: fc.boolean(),
      maxTokens: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
    })
    .map(({ model, stream, tool, maxTokens }) =>
      fromValue({
        model,
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        ...(stream ? { stream: true } : {}),
        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
        ...(tool
          ? {
              tools: [
                {
                  type: 'function',
                  function: {
                    name: 'get_weather',
                    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
                  },
                },
              ],
            }
          : {}),
      }),
    );

/** One to three fields replaced by hostile values. */
const mutatedChatArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<{ family: string; node: JsonNode }> =>
  fc
    .tuple(
      baseChatArb(context),
      fieldEditsArb(CHAT_FIELD_PATHS, MONEY_PATHS, maxStringBytes, 4),
    )
    .map(([base, edits]) => ({
      family: `chat-field:${edits.map(([path]) => path.join('.')).join('+')}`,
      node: edits.reduce((node, [path, value]) => setPath(node, path, value), base),
    }));

/** Shapes the relay must refuse or survive whole: wrong-typed bodies, deep tools, many messages. */
const shapedChatArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<{ family: string; node: JsonNode }> =>
  fc.oneof(
    hostileValueArb(maxStringBytes).map((node) => ({ family: 'chat-body:hostile-value', node })),
    fc.tuple(baseChatArb(context), deepNestingArb, fc.constantFrom(
      ['tools', 0, 'function', 'parameters', 'properties', 'city'],
      // Beside the schema, where an upstream ignores it but a token counter may stringify it.
      ['tools', 0, 'function', 'x_deep'],
      ['tools', 0, 'x_deep'],
      ['messages', 0, 'content'],
      ['response_format', 'json_schema', 'schema', 'properties'],
      ['metadata'],
      ['x_deep'],
    )).map(([base, deep, path]) => ({
      family: `chat-deep:${path.join('.')}`,
      node: setPath(path[0] === 'response_format' ? setPath(base, ['response_format'], fromValue({ type: 'json_schema', json_schema: { name: 'x' } })) : base, path, deep),
    })),
    // Streams the caller leaves mid-way (the simulator sends a token every 10 ms), so the relay
    // estimates usage itself, over tools that carry something hostile beside their schema.
    fc.tuple(fc.oneof(deepNestingArb, hostileValueArb(4_096)), fc.constantFrom<PathStep[]>(['tools', 0, 'function', 'x_extra'], ['tools', 0, 'function', 'description'], ['messages', 0, 'name'], ['x_extra'])).map(([value, path]) => ({
      family: `chat-abort:${path.join('.')}`,
      node: setPath(
        fromValue({
          model: context.model,
          stream: true,
          messages: [{ role: 'user', content: 'Tell me about the weather in Paris [sim:latency=10]' }],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
        }),
        path,
        value,
      ),
    })),
    fc.tuple(baseChatArb(context), fc.constantFrom(...POLLUTION_NODES), fc.constantFrom<PathStep[]>([], ['messages', 0], ['tools', 0, 'function', 'parameters'], ['metadata'], ['stream_options'])).map(([base, pollution, path]) => ({
      family: `chat-pollution:${path.join('.') || 'root'}`,
      node: path.length === 0 && base.kind === 'object' && pollution.kind === 'object' ? obj([...base.entries, ...pollution.entries]) : setPath(base, path, pollution),
    })),
    fc.tuple(baseChatArb(context), fc.constantFrom(100, 500, 2_000), hostileStringArb(64)).map(([base, count, text]) => ({
      family: 'chat-many-messages',
      node: setPath(base, ['messages'], lit(`[${new Array<string>(count).fill(JSON.stringify({ role: 'user', content: text })).join(',')}]`)),
    })),
    fc.tuple(baseChatArb(context), fc.constantFrom('model', 'messages', 'stream', 'max_tokens')).map(([base, key]) => ({
      family: `chat-duplicate-key:${key}`,
      node: base.kind === 'object' ? obj([...base.entries, [key, key === 'messages' ? str('x') : lit('1e300')]]) : base,
    })),
  );

/** Chat requests on `POST /v1/chat/completions`, mostly with the real token so they reach the simulator. */
export function chatCaseArb(context: FuzzContext, options: { maxStringBytes: number }): fc.Arbitrary<FuzzCase> {
  const keys = fc.oneof(
    { weight: 8, arbitrary: fc.constant<KeyKind>('token') },
    { weight: 1, arbitrary: fc.constantFrom<KeyKind>('admin', 'account', 'none', 'wrong', 'malformed') },
  );
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: mutatedChatArb(context, options.maxStringBytes) }, { weight: 1, arbitrary: shapedChatArb(context, options.maxStringBytes) }),
      authArb(context, keys),
      bodyTransportArb(),
      fc.constantFrom('/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions/', '/V1/Chat/Completions', '/v1/chat/completions?stream=true&__proto__[x]=1', '/v1//chat/completions'),
      fc.nat(19),
    )
    .map(([{ family, node }, auth, transport, target, abortRoll]) => {
      const encoded = transport(Buffer.from(serialize(node), 'utf8'));
      // A caller that walks away once the answer starts (usage is then estimated): often for deep
      // bodies, on small bodies only (a big one would be a freeze test).
      const abortRate = family.startsWith('chat-abort') ? 20 : family.startsWith('chat-deep') ? 8 : 1;
      const abortAfterHeaders = abortRoll < abortRate && encoded.body.length < 32_768;
      return {
        family: `${family} [${encoded.variant}]${abortAfterHeaders ? ' [abort]' : ''}`,
        request: { method: 'POST', target, headers: [...auth, ...encoded.headers], body: encoded.body, abortAfterHeaders },
      };
    });
}
