import fc from 'fast-check';
import { bodyTransportArb } from './body-transport';
import { setPath } from './chat-requests';
import { hostileIdArb, percentEncode, type FuzzCase, type FuzzContext } from './fuzz-context';
import { hostileStringArb, hostileValueArb, POLLUTION_NODES, fieldEditsArb, type PathStep } from './hostile-values';
import { fromValue, obj, serialize, type JsonNode } from './json-text';
import { countTokensBody, messagesBase, messagesBaseOptionsArb, type MessagesBaseOptions } from './messages-bodies';
import { betaHeadersArb, cleanHeadersArb, clientHeadersArb, messagesAuthArb, versionHeadersArb } from './messages-headers';
import { duplicateKeyTwistArb, twistArb } from './messages-twists';


/** Every field of a Messages request (and nested ones, in the tool-loop base too) a hostile value may replace. */
export const MESSAGES_FIELD_PATHS: readonly PathStep[][] = [
  ['model'],
  ['max_tokens'],
  ['messages'],
  ['messages', 0],
  ['messages', 0, 'role'],
  ['messages', 0, 'content'],
  ['messages', 0, 'content', 0],
  ['messages', 0, 'content', 0, 'type'],
  ['messages', 0, 'content', 0, 'text'],
  ['messages', 0, 'content', 0, 'cache_control'],
  ['messages', 1],
  ['messages', 1, 'content', 1, 'input'],
  ['messages', 1, 'content', 1, 'id'],
  ['messages', 1, 'content', 1, 'name'],
  ['messages', 2, 'content', 0, 'tool_use_id'],
  ['messages', 2, 'content', 0, 'content'],
  ['messages', 2, 'content', 0, 'is_error'],
  ['system'],
  ['system', 0],
  ['system', 1, 'text'],
  ['system', 1, 'cache_control'],
  ['system', 1, 'cache_control', 'ttl'],
  ['tools'],
  ['tools', 0],
  ['tools', 0, 'name'],
  ['tools', 0, 'type'],
  ['tools', 0, 'description'],
  ['tools', 0, 'input_schema'],
  ['tools', 0, 'input_schema', 'type'],
  ['tools', 0, 'input_schema', 'properties'],
  ['tools', 0, 'input_schema', 'required'],
  ['tools', 0, 'cache_control'],
  ['tool_choice'],
  ['tool_choice', 'type'],
  ['tool_choice', 'name'],
  ['thinking'],
  ['thinking', 'type'],
  ['thinking', 'budget_tokens'],
  ['stream'],
  ['stop_sequences'],
  ['stop_sequences', 0],
  ['temperature'],
  ['top_p'],
  ['top_k'],
  ['metadata'],
  ['metadata', 'user_id'],
  ['service_tier'],
  ['output_config'],
  ['output_config', 'effort'],
  ['output_config', 'format'],
  ['cache_control'],
  ['container'],
  ['mcp_servers'],
  ['context_management'],
  ['__proto__'],
  ['constructor'],
  ['x_unknown_field'],
];

/** Fields that feed money or a budget: extreme numbers there are the point. */
const MONEY_PATHS: readonly PathStep[][] = [['max_tokens'], ['thinking', 'budget_tokens'], ['top_k']];

interface Body {
  family: string;
  node: JsonNode;
  stream: boolean;
  upstreamFault?: boolean;
  /** Meant to reach a channel: mostly sent as clients send it (plain JSON, good headers, the token). */
  clean?: boolean;
}

const baseNode = (options: MessagesBaseOptions, count: boolean, directive = ''): JsonNode => {
  const body = messagesBase(options, directive);
  return fromValue(count ? countTokensBody(body) : body);
};

/** One to three fields replaced by hostile values. */
const mutatedArb = (context: FuzzContext, maxStringBytes: number, count: boolean): fc.Arbitrary<Body> =>
  fc
    .tuple(
      messagesBaseOptionsArb(context),
      fieldEditsArb(MESSAGES_FIELD_PATHS, MONEY_PATHS, maxStringBytes),
    )
    .map(([options, edits]) => ({
      family: `messages-field:${edits.map(([path]) => path.join('.')).join('+')}`,
      node: edits.reduce((node, [path, replacement]) => setPath(node, path, replacement), baseNode(options, count)),
      stream: options.stream,
    }));

/** A valid request given one Anthropic-specific twist (block types, turns, thinking, tools …). */
const twistedArb = (context: FuzzContext, count: boolean): fc.Arbitrary<Body> =>
  fc.tuple(messagesBaseOptionsArb(context), fc.oneof({ weight: 12, arbitrary: twistArb }, { weight: 1, arbitrary: duplicateKeyTwistArb })).map(([options, twist]) => ({
    family: `messages-${twist.name}`,
    node: twist.apply(baseNode(options, count)),
    stream: options.stream,
    clean: true,
  }));

/** A request as Claude Code sends it, untouched: the streams and answers of every path get checked whole. */
const validArb = (context: FuzzContext, count: boolean): fc.Arbitrary<Body> =>
  messagesBaseOptionsArb(context).map((options) => ({ family: `messages-valid:${options.model}`, node: baseNode(options, count), stream: options.stream, clean: true }));

/** Faults the simulator plays on any provider's side; never 401/403, which disable the channel's key. */
const FAULTS = ['status:400', 'status:404', 'status:413', 'status:422', 'status:429', 'status:500', 'status:502', 'status:503', 'status:529', 'stream-error', 'cut', 'malformed'];

/** A valid request asking the simulator to fail: the relay must say so in Anthropic's words. */
const faultArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  fc.tuple(messagesBaseOptionsArb(context), fc.constantFrom(...FAULTS), fc.nat(3)).map(([options, fault, streamRoll]) => {
    // Stream faults mostly on streams, where they happen after the 200.
    const stream = fault.startsWith('status') ? options.stream : streamRoll > 0;
    return {
      family: `messages-fault:${fault}`,
      node: baseNode({ ...options, stream, toolLoop: false }, false, `[sim:fault=${fault}]`),
      stream,
      upstreamFault: true,
      clean: true,
    };
  });

/** Streams the caller leaves mid-way (a token every 10 ms), so usage is estimated on each path. */
const abandonedArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  messagesBaseOptionsArb(context).map((options) => ({
    family: 'messages-abandoned',
    node: baseNode({ ...options, stream: true, toolLoop: false }, false, '[sim:latency=10]'),
    stream: true,
    clean: true,
  }));

const shapedArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<Body> =>
  fc.oneof(
    hostileValueArb(maxStringBytes).map((node) => ({ family: 'messages-body:hostile-value', node, stream: false })),
    fc.tuple(messagesBaseOptionsArb(context), fc.constantFrom(...POLLUTION_NODES), fc.constantFrom<PathStep[]>([], ['messages', 0], ['tools', 0, 'input_schema'], ['metadata'], ['thinking'])).map(([options, pollution, path]) => {
      const base = baseNode(options, false);
      return {
        family: `messages-pollution:${path.join('.') || 'root'}`,
        node: path.length === 0 && base.kind === 'object' && pollution.kind === 'object' ? obj([...base.entries, ...pollution.entries]) : setPath(base, path, pollution),
        stream: options.stream,
      };
    }),
  );

const MESSAGES_TARGETS = ['/v1/messages', '/v1/messages?beta=true'];
const ODD_MESSAGES_TARGETS = ['/v1/messages/', '/V1/Messages', '/v1/messages?beta=false', '/v1/messages?beta=', '/v1/messages?beta=true&beta=false', '/v1/messages?beta[]=1', '/v1/messages?beta[__proto__][polluted]=fuzz', '/v1/messages?__proto__[polluted]=fuzz', '/v1/messages?beta=%ff'];

/** The target of a clean request and of a hostile one (odd paths and queries sometimes). */
const targetsArb = (count: boolean): fc.Arbitrary<{ clean: string; hostile: string }> =>
  fc
    .tuple(fc.constantFrom(...MESSAGES_TARGETS), fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...MESSAGES_TARGETS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_MESSAGES_TARGETS) }))
    .map((targets) => targets.map((target) => (count ? target.replace(/^\/v1\/messages/i, (path) => `${path}/count_tokens`) : target)))
    .map(([clean = '', hostile = '']) => ({ clean, hostile }));

/** POST /v1/messages and /v1/messages/count_tokens, most with the real token so they reach a channel. */
const postArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<FuzzCase> =>
  fc.boolean().chain((count) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: validArb(context, count) },
          { weight: 5, arbitrary: twistedArb(context, count) },
          { weight: 4, arbitrary: mutatedArb(context, maxStringBytes, count) },
          // count_tokens plays no fault: the simulator counts, and bridged counts are the relay's own.
          { weight: 2, arbitrary: count ? twistedArb(context, count) : faultArb(context) },
          { weight: 1, arbitrary: count ? twistedArb(context, count) : abandonedArb(context) },
          { weight: 1, arbitrary: shapedArb(context, maxStringBytes) },
        ),
        fc.tuple(messagesAuthArb(context), versionHeadersArb, betaHeadersArb).map((parts) => parts.flat()),
        cleanHeadersArb(context),
        clientHeadersArb,
        bodyTransportArb(),
        fc.oneof({ weight: 5, arbitrary: bodyTransportArb(true) }, { weight: 1, arbitrary: bodyTransportArb() }),
        targetsArb(count),
        fc.nat(19),
      )
      .map(([body, hostileHeaders, cleanHeaders, client, hostileTransport, cleanTransport, targets, abortRoll]) => {
        const target = body.clean ? targets.clean : targets.hostile;
        const transport = body.clean ? cleanTransport : hostileTransport;
        const encoded = transport(Buffer.from(serialize(body.node), 'utf8'));
        const abortRate = body.family === 'messages-abandoned' ? 20 : body.stream ? 2 : 0;
        const abortAfterHeaders = abortRoll < abortRate && encoded.body.length < 32_768;
        const family = `${count ? 'count-tokens' : 'messages'}${body.family.replace(/^messages/, '')} [${encoded.variant}]${abortAfterHeaders ? ' [abort]' : ''}`;
        return {
          family,
          ...(body.upstreamFault ? { upstreamFault: true } : {}),
          request: { method: 'POST', target, headers: [...(body.clean ? cleanHeaders : hostileHeaders), ...client, ...encoded.headers], body: encoded.body, abortAfterHeaders },
        };
      }),
  );

/** `GET /v1/models` the Anthropic way (`anthropic-version` sent): pages, cursors, ids. */
const modelsArb = (context: FuzzContext): fc.Arbitrary<FuzzCase> => {
  const { native, bridged, gemini } = context.messagesModels;
  const query = fc.constantFrom('', '?limit=2', '?limit=0', '?limit=1001', '?limit=-1', '?limit=abc', '?limit=1e3', `?after_id=${native}`, `?before_id=${gemini}&limit=1`, '?after_id=%ff', '?limit[]=1', '?__proto__[polluted]=fuzz');
  const id = fc.oneof(fc.constantFrom(native, bridged, gemini, 'claude-opus-4-6', 'no-such-model', `${native}-gizmo-${context.assistantId}`), hostileIdArb, hostileStringArb(64).map(percentEncode));
  const target = fc.oneof(query.map((text) => `/v1/models${text}`), id.map((model) => `/v1/models/${model}`));
  return fc.tuple(target, messagesAuthArb(context), betaHeadersArb, fc.constantFrom('2023-06-01', '2023-06-01', '', 'x')).map(([path, auth, beta, version]) => ({
    family: `messages-models:GET ${path.startsWith('/v1/models/') ? '/v1/models/{id}' : '/v1/models'}`,
    request: { method: 'GET', target: path, headers: [...auth, ['anthropic-version', version] as [string, string], ...beta] },
  }));
};

/** Other methods on the Messages paths, and paths beside them. */
const strayArb = (context: FuzzContext): fc.Arbitrary<FuzzCase> =>
  fc
    .tuple(
      fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'),
      fc.constantFrom('/v1/messages', '/v1/messages/count_tokens', '/v1/messages/batches', '/v1/messages/msg_01XFDUDYJgAACzvnptvVoYEL', '/v1/complete'),
      messagesAuthArb(context),
    )
    .map(([method, target, auth]) => ({
      family: `messages-stray:${method} ${target}`,
      request: { method, target, headers: [...auth, ['anthropic-version', '2023-06-01'] as [string, string]] },
    }));

/**
 * Hostile Anthropic Messages requests, Claude Code's shapes mutated: bodies for `/v1/messages`
 * and `/v1/messages/count_tokens` on Anthropic (passthrough), OpenAI and Gemini channels
 * (bridged), Anthropic's headers and keys, upstream faults asked for, the Anthropic model list.
 */
export function messagesCaseArb(context: FuzzContext, options: { maxStringBytes: number }): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    { weight: 28, arbitrary: postArb(context, options.maxStringBytes) },
    { weight: 2, arbitrary: modelsArb(context) },
    { weight: 1, arbitrary: strayArb(context) },
  );
}
