import fc from 'fast-check';
import { apiBodyArb, BODY_SPECS } from './api-bodies';
import { bodyTransportArb } from './body-transport';
import { authArb, hostileIdArb, idSegmentArb, percentEncode, type FuzzCase, type FuzzContext } from './fuzz-context';
import { hostileStringArb } from './hostile-values';
import { serialize } from './json-text';

/** A route of the system API (and the read-only `/v1` ones) with how to fill its path. */
interface Route {
  method: string;
  /** `{token}`, `{account}`, `{channel}`, `{assistant}`, `{model}` are replaced by ids. */
  path: string;
  body?: keyof typeof BODY_SPECS;
  /** Query parameters it reads, to be given hostile values. */
  query?: string[];
}

const PAGE = ['page', 'per_page'];

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/tokens', query: [...PAGE, 'status', 'account_id'] },
  { method: 'POST', path: '/api/tokens', body: 'token' },
  { method: 'GET', path: '/api/tokens/search', query: [...PAGE, 'q'] },
  { method: 'POST', path: '/api/tokens/batch', body: 'tokenBatch' },
  { method: 'GET', path: '/api/tokens/{token}' },
  { method: 'PATCH', path: '/api/tokens/{token}', body: 'tokenUpdate' },
  { method: 'DELETE', path: '/api/tokens/{token}' },
  { method: 'GET', path: '/api/tokens/{token}/usage', query: ['from', 'to', 'group_by'] },
  { method: 'GET', path: '/api/accounts', query: PAGE },
  { method: 'POST', path: '/api/accounts', body: 'account' },
  { method: 'GET', path: '/api/accounts/{account}' },
  { method: 'PATCH', path: '/api/accounts/{account}', body: 'account' },
  { method: 'DELETE', path: '/api/accounts/{account}' },
  { method: 'GET', path: '/api/assistants', query: PAGE },
  { method: 'POST', path: '/api/assistants', body: 'assistant' },
  { method: 'GET', path: '/api/assistants/{assistant}' },
  { method: 'PATCH', path: '/api/assistants/{assistant}', body: 'assistant' },
  { method: 'DELETE', path: '/api/assistants/{assistant}' },
  { method: 'GET', path: '/api/channels', query: PAGE },
  { method: 'POST', path: '/api/channels', body: 'channel' },
  { method: 'GET', path: '/api/channels/{channel}' },
  { method: 'PATCH', path: '/api/channels/{channel}', body: 'channel' },
  { method: 'DELETE', path: '/api/channels/{channel}' },
  { method: 'POST', path: '/api/channels/{channel}/test' },
  { method: 'GET', path: '/api/prices' },
  { method: 'PUT', path: '/api/prices', body: 'prices' },
  { method: 'GET', path: '/api/logs', query: ['token_id', 'account_id', 'model', 'status', 'from', 'to', 'page', 'per_page'] },
  { method: 'GET', path: '/api/account' },
  { method: 'GET', path: '/api/models' },
  { method: 'GET', path: '/v1/models' },
  { method: 'GET', path: '/v1/models/{model}' },
  { method: 'GET', path: '/v1/dashboard/billing/subscription' },
  { method: 'GET', path: '/v1/dashboard/billing/usage', query: ['start_date', 'end_date'] },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'POST', path: '/v1/completions' },
  { method: 'POST', path: '/v1/embeddings' },
  { method: 'GET', path: '/v1/chat/completions' },
  { method: 'GET', path: '/api/{token}' },
];

/** Query values that coerce badly, and keys qs turns into nested objects. */
const queryValueArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('-1', '0', '1e300', '1e3', 'NaN', 'Infinity', '9007199254740993', '1.5', '', '%ff', '%', '%zz', '%00', 'null', 'true', '2026-13-01', 'day', 'model', 'x'.repeat(5_000)),
  hostileStringArb(64).map(percentEncode),
);

const queryArb = (names: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...names, 'unknown'), queryValueArb).map(([name, value]) => `${name}=${value}`) },
        { weight: 1, arbitrary: fc.constantFrom(...names, 'unknown').map((name) => `${name}[]=1&${name}[]=2`) },
        { weight: 1, arbitrary: fc.constantFrom(...names, 'x').map((name) => `${name}=1&${name}=2`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '__proto__[polluted]=fuzz',
            '__proto__.polluted=fuzz',
            'constructor[prototype][polluted]=fuzz',
            'a[__proto__][polluted]=fuzz',
            `${'a['.repeat(30)}b${']'.repeat(30)}=1`,
            `${new Array(2_000).fill('a[]=1').join('&')}`,
            '%ff=1',
            '=',
            '&&&',
            'page',
          ),
        },
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));

function pathArb(context: FuzzContext, route: Route): fc.Arbitrary<string> {
  const write = route.method !== 'GET';
  const slots: Record<string, fc.Arbitrary<string>> = {
    '{token}': idSegmentArb(context, 'tokens', write),
    '{account}': idSegmentArb(context, 'accounts', write),
    '{channel}': idSegmentArb(context, 'channels', write),
    '{assistant}': fc.oneof(fc.constantFrom(...context.spareIds.assistants, 'g-absent9', ...(write ? [] : [context.assistantId])), hostileIdArb),
    '{model}': fc.oneof(fc.constantFrom(context.model, `${context.model}-gizmo-${context.assistantId}`, 'gpt-4o%2Fx', 'a%2F..%2F..'), hostileIdArb),
  };
  const names = Object.keys(slots).filter((slot) => route.path.includes(slot));
  return fc.tuple(...names.map((slot) => slots[slot] as fc.Arbitrary<string>)).map((values) =>
    names.reduce((path, slot, index) => path.replace(slot, values[index] as string), route.path),
  );
}

/** Paths that match nothing, or only nearly. */
const strayPathArb: fc.Arbitrary<string> = fc.constantFrom(
  '/',
  '//',
  '/api',
  '/api/',
  '/api/tokens/',
  '/api//tokens',
  '/API/TOKENS',
  '/api/tokens/1/usage/extra',
  '/v1',
  '/v1/',
  '/v1/models/',
  '/%',
  '/%ff',
  '/api/%ff',
  '/api/tokens/%ff',
  '/api/tokens/%ff/usage',
  '/api/assistants/%ff',
  '/v1/models/%ff',
  '/v1/models/%',
  '/v1/chat%2Fcompletions',
  '/v1/chat/completions%00',
  '/..%2f..%2fetc/passwd',
  '/api/tokens/../accounts',
  '/api/tokens/1;jsessionid=x',
  `/api/${'a'.repeat(8_000)}`,
  '*',
  'http://evil.example/api/tokens',
  '/api/tokens#frag',
  '/api/tokens?',
);

const methodArb = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'M-SEARCH', 'PURGE');

/** Requests on the system API and the read-only `/v1` routes, with every key kind. */
export function apiCaseArb(context: FuzzContext, options: { maxStringBytes: number }): fc.Arbitrary<FuzzCase> {
  const routed = fc.constantFrom(...ROUTES).chain((route) =>
    fc
      .tuple(
        pathArb(context, route),
        queryArb(route.query ?? ['x']),
        route.body ? apiBodyArb(context, route.body, options.maxStringBytes) : fc.constant(undefined),
        fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: methodArb }),
      )
      .map(([path, query, body, method]) => ({ family: `api:${route.method} ${route.path}${body ? ` ${body.label}` : ''}`, method, target: `${path}${query}`, node: body?.node })),
  );
  const stray = fc.tuple(strayPathArb, methodArb).map(([target, method]) => ({ family: `api-stray:${method} ${target.slice(0, 40)}`, method, target, node: undefined }));
  return fc
    .tuple(fc.oneof({ weight: 9, arbitrary: routed }, { weight: 1, arbitrary: stray }), authArb(context), bodyTransportArb())
    .map(([{ family, method, target, node }, auth, transport]) => {
      if (!node) return { family, request: { method, target, headers: auth } };
      const encoded = transport(Buffer.from(serialize(node), 'utf8'));
      return { family: `${family} [${encoded.variant}]`, request: { method, target, headers: [...auth, ...encoded.headers], body: encoded.body } };
    });
}
