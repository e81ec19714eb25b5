import fc from 'fast-check';
import { bodyTransportArb } from './body-transport';
import { setPath } from './chat-requests';
import { authArb, hostileIdArb, type FuzzCase, type FuzzContext } from './fuzz-context';
import { hostileValueArb, POLLUTION_NODES, fieldEditsArb, type PathStep } from './hostile-values';
import { fromValue, obj, serialize, type JsonNode } from './json-text';
import { responsesBase, responsesBaseOptionsArb, type ResponsesBaseOptions } from './responses-bodies';
import { duplicateKeyTwistArb, responsesTwistArb } from './responses-twists';


/** Every field of a Responses request (and nested ones) a hostile value may replace. */
export const RESPONSES_FIELD_PATHS: readonly PathStep[][] = [
  ['model'],
  ['input'],
  ['input', 0],
  ['input', 0, 'type'],
  ['input', 0, 'role'],
  ['input', 0, 'content'],
  ['input', 0, 'content', 0],
  ['input', 0, 'content', 0, 'type'],
  ['input', 0, 'content', 0, 'text'],
  ['input', 1, 'call_id'],
  ['input', 1, 'arguments'],
  ['input', 2, 'output'],
  ['instructions'],
  ['tools'],
  ['tools', 0],
  ['tools', 0, 'type'],
  ['tools', 0, 'name'],
  ['tools', 0, 'parameters'],
  ['tools', 0, 'strict'],
  ['tool_choice'],
  ['parallel_tool_calls'],
  ['text'],
  ['text', 'format'],
  ['text', 'format', 'type'],
  ['text', 'format', 'schema'],
  ['reasoning'],
  ['reasoning', 'effort'],
  ['max_output_tokens'],
  ['temperature'],
  ['top_p'],
  ['top_logprobs'],
  ['store'],
  ['previous_response_id'],
  ['include'],
  ['metadata'],
  ['stream'],
  ['stream_options'],
  ['background'],
  ['truncation'],
  ['user'],
  ['__proto__'],
  ['constructor'],
  ['x_unknown_field'],
];

/** Fields that feed money or a budget: extreme numbers there are the point. */
const MONEY_PATHS: readonly PathStep[][] = [['max_output_tokens'], ['top_logprobs'], ['input']];

interface Body {
  family: string;
  node: JsonNode;
  stream: boolean;
  upstreamFault?: boolean;
  /** Meant to reach a channel: sent as the OpenAI SDK sends it (plain JSON, its token, a clean path). */
  clean?: boolean;
}

const baseNode = (context: FuzzContext, options: ResponsesBaseOptions, directive = ''): JsonNode => fromValue(responsesBase(context, options, directive));

/** A request as the OpenAI SDK sends it, untouched: the answers of every path get checked whole. */
const validArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  responsesBaseOptionsArb(context).map((options) => ({
    family: `responses-valid:${options.input}${options.previous === 'none' ? '' : `+previous-${options.previous}`}`,
    node: baseNode(context, options),
    stream: options.stream,
    clean: true,
  }));

/** A valid request given one Responses-specific twist (items, tools, formats, state …). */
const twistedArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  fc.tuple(responsesBaseOptionsArb(context), fc.oneof({ weight: 15, arbitrary: responsesTwistArb(context) }, { weight: 1, arbitrary: duplicateKeyTwistArb })).map(([options, twist]) => ({
    family: `responses-${twist.name}`,
    node: twist.apply(baseNode(context, options)),
    stream: options.stream,
    clean: true,
  }));

/** One to three fields replaced by hostile values. */
const mutatedArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<Body> =>
  fc
    .tuple(
      responsesBaseOptionsArb(context),
      fieldEditsArb(RESPONSES_FIELD_PATHS, MONEY_PATHS, maxStringBytes),
    )
    .map(([options, edits]) => ({
      family: `responses-field:${edits.map(([path]) => path.join('.')).join('+')}`,
      node: edits.reduce((node, [path, replacement]) => setPath(node, path, replacement), baseNode(context, { ...options, input: 'tool-round-trip' })),
      stream: options.stream,
    }));

/**
 * Faults the simulator plays on any provider's side; never 401/403 (they disable the channel's
 * key) nor 405 (it tells the relay a channel has no Responses API, for good).
 */
const FAULTS = ['status:400', 'status:404', 'status:413', 'status:422', 'status:429', 'status:500', 'status:502', 'status:503', 'status:529', 'stream-error', 'cut', 'malformed'];

/** A valid request asking the simulator to fail: the relay must say so in OpenAI's words. */
const faultArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  fc.tuple(responsesBaseOptionsArb(context), fc.constantFrom(...FAULTS), fc.nat(3)).map(([options, fault, streamRoll]) => {
    // Stream faults mostly on streams, where they happen after the 200.
    const stream = fault.startsWith('status') ? options.stream : streamRoll > 0;
    return {
      family: `responses-fault:${fault}`,
      node: baseNode(context, { ...options, stream, input: options.input === 'tool-round-trip' ? 'string' : options.input }, `[sim:fault=${fault}]`),
      stream,
      upstreamFault: true,
      clean: true,
    };
  });

/** Streams the caller leaves mid-way (a token every 10 ms), so usage is estimated on each path. */
const abandonedArb = (context: FuzzContext): fc.Arbitrary<Body> =>
  responsesBaseOptionsArb(context).map((options) => ({
    family: 'responses-abandoned',
    node: baseNode(context, { ...options, stream: true, input: 'string', previous: 'none' }, '[sim:latency=10]'),
    stream: true,
    clean: true,
  }));

const shapedArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<Body> =>
  fc.oneof(
    hostileValueArb(maxStringBytes).map((node) => ({ family: 'responses-body:hostile-value', node, stream: false })),
    fc.tuple(responsesBaseOptionsArb(context), fc.constantFrom(...POLLUTION_NODES), fc.constantFrom<PathStep[]>([], ['input', 0], ['tools', 0, 'parameters'], ['metadata'], ['text', 'format'], ['reasoning'])).map(([options, pollution, path]) => {
      const base = baseNode(context, { ...options, input: 'typed-message' });
      return {
        family: `responses-pollution:${path.join('.') || 'root'}`,
        node: path.length === 0 && base.kind === 'object' && pollution.kind === 'object' ? obj([...base.entries, ...pollution.entries]) : setPath(base, path, pollution),
        stream: options.stream,
      };
    }),
  );

const ODD_TARGETS = ['/v1/responses/', '/V1/Responses', '/v1/responses?stream=true', '/v1/responses?__proto__[polluted]=fuzz', '/v1/responses?include[]=x', '/v1//responses', '/v1/responses%00'];

/** Headers the OpenAI SDKs add beside the key. */
const sdkHeadersArb = fc.constantFrom<Array<[string, string]>>(
  [],
  [['User-Agent', 'OpenAI/JS 5.23.0'], ['x-stainless-lang', 'js'], ['x-stainless-retry-count', '0']],
  [['User-Agent', 'OpenAI/Python 1.109.1'], ['x-stainless-async', 'false']],
  [['Accept', 'application/json']],
  [['OpenAI-Beta', 'responses=v1']],
);

/** POST /v1/responses: most with the family's token, plain JSON and the clean path, so they reach a channel. */
const createArb = (context: FuzzContext, maxStringBytes: number): fc.Arbitrary<FuzzCase> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: validArb(context) },
        { weight: 6, arbitrary: twistedArb(context) },
        { weight: 4, arbitrary: mutatedArb(context, maxStringBytes) },
        { weight: 3, arbitrary: faultArb(context) },
        { weight: 1, arbitrary: abandonedArb(context) },
        { weight: 1, arbitrary: shapedArb(context, maxStringBytes) },
      ),
      fc.nat(7),
      authArb(context),
      sdkHeadersArb,
      bodyTransportArb(true),
      bodyTransportArb(),
      fc.oneof({ weight: 8, arbitrary: fc.constant('/v1/responses') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_TARGETS) }),
      fc.nat(19),
    )
    .map(([body, hostileRoll, hostileAuth, sdk, cleanTransport, hostileTransport, hostileTarget, abortRoll]) => {
      // A clean request stays clean but for one hostile part, now and then (1 in 8 each way). The
      // family's token travels only in plain JSON: a body the HTTP parser refuses halfway still
      // leaves a usage row, with an answer no route wrote, which the run could not count.
      const token: Array<[string, string]> = [['Authorization', `Bearer ${context.responses.token}`]];
      const transport = body.clean && hostileRoll !== 1 ? cleanTransport : hostileTransport;
      const auth = !body.clean || hostileRoll === 0 ? hostileAuth : hostileRoll === 1 ? ([['Authorization', `Bearer ${context.token}`]] as Array<[string, string]>) : token;
      const chosen = transport(Buffer.from(serialize(body.node), 'utf8'));
      const target = body.clean && hostileRoll !== 2 ? '/v1/responses' : hostileTarget;
      const abortRate = body.family === 'responses-abandoned' ? 20 : body.stream ? 2 : 0;
      const abortAfterHeaders = abortRoll < abortRate && chosen.body.length < 32_768;
      return {
        family: `${body.family} [${chosen.variant}]${abortAfterHeaders ? ' [abort]' : ''}`,
        ...(body.upstreamFault ? { upstreamFault: true } : {}),
        request: { method: 'POST', target, headers: [...auth, ...sdk, ...chosen.headers], body: chosen.body, abortAfterHeaders },
      };
    });

/** Ids of stored responses (the family's own), of none, and of no shape at all. */
const responseIdArb = (context: FuzzContext, write: boolean): fc.Arbitrary<string> => {
  const { previous, deletable } = context.responses;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(write ? deletable : [previous.native, previous.bridged, previous.chained, ...deletable])) },
    { weight: 1, arbitrary: fc.constantFrom(previous.unstored, 'resp_0123456789abcdef0123456789abcdef0123456789abcdef', 'resp_', 'msg_fuzz') },
    { weight: 2, arbitrary: hostileIdArb },
  );
};

const ITEM_QUERIES = ['', '?limit=1', '?limit=100', '?limit=0', '?limit=101', '?limit=abc', '?order=asc', '?order=desc&limit=2', '?order=sideways', '?after=msg_nowhere', '?before=msg_nowhere', '?include[]=x', '?include=message.input_image.image_url', '?__proto__[polluted]=fuzz', '?limit=1&limit=2'];
const RETRIEVE_QUERIES = ['', '?stream=false', '?stream=true', '?include=reasoning.encrypted_content', '?starting_after=3', '?starting_after=x', '?stream[]=1'];

/** Retrieval, deletion, input items and cancel of stored responses, mostly with the family's token. */
const itemRoutesArb = (context: FuzzContext): fc.Arbitrary<FuzzCase> => {
  const token: Array<[string, string]> = [['Authorization', `Bearer ${context.responses.token}`]];
  const auth = fc.oneof({ weight: 5, arbitrary: fc.constant(token) }, { weight: 2, arbitrary: authArb(context) });
  return fc.oneof(
    fc.tuple(responseIdArb(context, false), fc.constantFrom(...RETRIEVE_QUERIES), auth).map(([id, query, headers]) => ({
      family: 'responses-item:GET /v1/responses/{id}',
      request: { method: 'GET', target: `/v1/responses/${id}${query}`, headers },
    })),
    fc.tuple(responseIdArb(context, false), fc.constantFrom(...ITEM_QUERIES), auth).map(([id, query, headers]) => ({
      family: 'responses-item:GET /v1/responses/{id}/input_items',
      request: { method: 'GET', target: `/v1/responses/${id}/input_items${query}`, headers },
    })),
    fc.tuple(responseIdArb(context, false), auth).map(([id, headers]) => ({
      family: 'responses-item:POST /v1/responses/{id}/cancel',
      request: { method: 'POST', target: `/v1/responses/${id}/cancel`, headers: [...headers, ['Content-Type', 'application/json'] as [string, string]], body: Buffer.from('{}') },
    })),
    fc.tuple(responseIdArb(context, true), auth).map(([id, headers]) => ({
      family: 'responses-item:DELETE /v1/responses/{id}',
      request: { method: 'DELETE', target: `/v1/responses/${id}`, headers },
    })),
  );
};

/** Other methods on the Responses paths. */
const strayArb = (context: FuzzContext): fc.Arbitrary<FuzzCase> =>
  fc
    .tuple(
      fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'),
      fc.constantFrom('/v1/responses', '/v1/responses/input_items', `/v1/responses/${context.responses.previous.bridged}/input_items/x`),
      authArb(context),
    )
    .map(([method, target, headers]) => ({ family: `responses-stray:${method} ${target.replace(/resp_[0-9a-f]+/, '{id}')}`, request: { method, target, headers } }));

/**
 * Hostile OpenAI Responses requests, the SDK's shapes mutated: bodies for `POST /v1/responses`
 * on a channel with the Responses API (passed through), one without it (learnt, then bridged),
 * and the Anthropic and Gemini channels (bridged); `previous_response_id` to stored, unstored
 * and unknown responses; upstream faults asked for; the stored-response routes.
 */
export function responsesCaseArb(context: FuzzContext, options: { maxStringBytes: number }): fc.Arbitrary<FuzzCase> {
  return fc.oneof({ weight: 26, arbitrary: createArb(context, options.maxStringBytes) }, { weight: 4, arbitrary: itemRoutesArb(context) }, { weight: 1, arbitrary: strayArb(context) });
}
