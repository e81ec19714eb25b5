import fc from 'fast-check';
import { setPath } from './chat-requests';
import type { FuzzContext } from './fuzz-context';
import { hostileValueArb, numberLiteralArb } from './hostile-values';
import { arr, fromValue, lit, str, type JsonNode } from './json-text';

/**
 * Valid bodies for the system API's writes, and the fields a hostile value may replace. Fields
 * that decide routing (a channel's models, base URL, keys, type) only take values that can never
 * make a fuzz-made channel serve the chat model: a hostile type, or a harmless valid choice.
 */
interface BodySpec {
  base: (context: FuzzContext) => unknown;
  fields: string[][];
  /** Routing fields and their allowed replacements, instead of any hostile value. */
  guarded?: (context: FuzzContext) => Record<string, JsonNode[]>;
}

const tokenPolicy = ['name', 'status', 'expires_at', 'quota_limit', 'models', 'allowed_ips', 'rate_limit', 'rate_limit.rpm', 'rate_limit.tpm'];

const wrongTypes: JsonNode[] = [lit('null'), lit('1'), lit('1e300'), str(''), lit('{}'), lit('[]'), lit('[1]'), str('x'.repeat(300))];

export const BODY_SPECS: Record<string, BodySpec> = {
  token: {
    base: () => ({ name: 'fuzz', quota_limit: 1_000_000, models: ['fuzz-*'], rate_limit: { rpm: 10, tpm: null } }),
    fields: [...tokenPolicy, 'account_id', 'key', 'quota_used'].map((field) => field.split('.')),
  },
  tokenUpdate: {
    base: () => ({ name: 'fuzz-renamed', quota_used: 0 }),
    fields: [...tokenPolicy, 'quota_used', 'id', 'account_id'].map((field) => field.split('.')),
  },
  tokenBatch: {
    base: (context) => ({ ids: context.spareIds.tokens, action: 'update', update: { name: 'batch' } }),
    fields: [['action'], ['update'], ['update', 'quota_limit'], ['update', 'quota_used'], ['update', 'status']],
    // Ids only ever name spare tokens (or none): a hostile small integer could be the chat token's.
    guarded: (context) => ({
      ids: [
        ...wrongTypes,
        fromValue(context.spareIds.tokens),
        lit('[0]'),
        lit('[-1]'),
        lit('[1e300]'),
        lit('[9007199254740993]'),
        lit('[1.5]'),
        lit('["1"]'),
        fromValue(new Array<number>(1_001).fill(context.spareIds.tokens[0] ?? 999_999)),
      ],
    }),
  },
  account: {
    base: () => ({ name: 'fuzz-account', role: 'user', quota_limit: 5_000_000 }),
    fields: [['name'], ['role'], ['status'], ['quota_limit'], ['quota_used'], ['id']],
  },
  assistant: {
    base: () => ({ name: 'Fuzz', instructions: 'Be brief.', temperature: 0.5, models: ['gpt-4o'], visibility: 'private' }),
    fields: ['id', 'name', 'description', 'instructions', 'tools', 'tools.0', 'tools.0.function.parameters', 'temperature', 'top_p', 'max_tokens', 'response_format', 'models', 'visibility', 'account_id'].map((field) =>
      field.split('.'),
    ),
  },
  channel: {
    base: (context) => ({ name: 'fuzz-spare', type: 'openai', base_url: context.simBaseUrl, keys: [context.simKey], models: ['fuzz-spare'], priority: 0 }),
    fields: [['name'], ['priority'], ['weight'], ['enabled'], ['model_mapping'], ['model_mapping', 'fuzz-spare'], ['timeouts'], ['timeouts', 'connect_ms'], ['timeouts', 'first_byte_ms'], ['timeouts', 'idle_ms'], ['id']],
    guarded: (context) => ({
      type: [str('anthropic'), str('gemini'), str('openai'), str('azure'), lit('1')],
      models: [...wrongTypes, fromValue(['fuzz-spare-2']), fromValue(['']), fromValue([' ']), fromValue(['fuzz-*-spare'])],
      base_url: [...wrongTypes, str(context.simBaseUrl), str('ftp://x'), str('javascript:alert(1)'), str('http://[::1'), str('http://127.0.0.1:0/v1'), str('%ff')],
      keys: [...wrongTypes, fromValue([context.simKey]), fromValue(['']), fromValue(['k'.repeat(5_000)])],
    }),
  },
  prices: {
    // The chat model keeps a price, so cost arithmetic stays exercised after a valid PUT.
    base: (context) => ({
      data: [
        { model: context.model, input: 2_500_000, output: 10_000_000, cache_read: 1_250_000, cache_write: 3_125_000 },
        { model: 'fuzz-*', input: 1, output: 2 },
      ],
    }),
    fields: [
      ['data'],
      ['data', '1'],
      ['data', '1', 'model'],
      ['data', '1', 'input'],
      ['data', '1', 'output'],
      ['data', '1', 'cache_write'],
      ['data', '0', 'input'],
      ['data', '0', 'cache_read'],
      ['data', '0', 'cache_write'],
      ['data', '2'],
      ['extra'],
    ],
  },
};

const asPath = (field: readonly string[]) => field.map((step) => (/^\d+$/.test(step) ? Number(step) : step));

/** A body for `spec`: valid, or with one to three fields replaced. */
export function apiBodyArb(context: FuzzContext, specName: keyof typeof BODY_SPECS, maxStringBytes: number): fc.Arbitrary<{ label: string; node: JsonNode }> {
  const spec = BODY_SPECS[specName] as BodySpec;
  const guarded = spec.guarded?.(context) ?? {};
  const edit = fc.oneof(
    fc.tuple(fc.constantFrom(...spec.fields), fc.oneof(hostileValueArb(maxStringBytes), numberLiteralArb)),
    ...Object.entries(guarded).map(([field, values]) => fc.tuple(fc.constant<string[]>([field]), fc.constantFrom(...values))),
  );
  return fc.tuple(fc.array(edit, { maxLength: 3 }), fc.boolean()).map(([edits, asArray]) => {
    const base = fromValue(spec.base(context));
    const node = edits.reduce((current, [field, value]) => setPath(current, asPath(field), value), base);
    // Now and then the whole body arrives as an array of itself.
    return { label: edits.map(([field]) => field.join('.')).join('+') || 'valid', node: asArray && edits.length === 0 ? arr([node]) : node };
  });
}
