import fc from 'fast-check';
import type { RawRequest } from './raw-http';
import type { ResponsesTargets } from './responses-fixtures';

/**
 * What the generators aim at: the relay's keys and the ids of what it holds. Fixtures (the chat
 * token, its account, the simulator's channel, one assistant) are only ever read; the spare
 * resources are the ones hostile PATCH, DELETE and batch requests may really change, so a valid
 * mutation cannot turn the rest of the run into 401s or 503s.
 */
export interface FuzzContext {
  adminKey: string;
  /** An account's access key (`sk-acct-…`): reaches only its own tokens, assistants, logs. */
  accountKey: string;
  /** The API token every chat request uses; belongs to the account above. */
  token: string;
  /** The model the simulator's channel serves. */
  model: string;
  /** A public assistant of the account, chatted with as `<model>-gizmo-<id>`. */
  assistantId: string;
  /**
   * Models of the Messages family: `native` on an Anthropic channel (passed through), `bridged` a
   * Claude name an OpenAI channel serves as its model, `gemini` on a Gemini channel (both through
   * the hub), `both` on an Anthropic and an OpenAI channel (a retry may change the path).
   */
  messagesModels: { native: string; bridged: string; gemini: string; both: string };
  /** The Responses family's own token, channels and stored responses (see ResponsesTargets). */
  responses: ResponsesTargets;
  /** The simulator's OpenAI base URL and key, for channel bodies that must stay harmless. */
  simBaseUrl: string;
  simKey: string;
  fixtureIds: { token: number; account: number; channel: number };
  spareIds: { tokens: number[]; accounts: number[]; channels: number[]; assistants: string[] };
}

export type KeyKind = 'admin' | 'account' | 'token' | 'none' | 'wrong' | 'malformed';

/** One generated request and the family that made it (failures are grouped by it). */
export interface FuzzCase {
  family: string;
  request: RawRequest;
  /** The case asked the simulator for a failure (`[sim:fault=…]`): a 5xx or an error event is then the answer. */
  upstreamFault?: boolean;
}

export const keyKindArb: fc.Arbitrary<KeyKind> = fc.constantFrom('admin', 'account', 'token', 'none', 'wrong', 'malformed');

/** The `Authorization` headers a key kind sends (none, one or two). */
export function authHeaders(context: FuzzContext, kind: KeyKind, variant: number): Array<[string, string]> {
  switch (kind) {
    case 'admin':
      return [['Authorization', `Bearer ${context.adminKey}`]];
    case 'account':
      return [['Authorization', `Bearer ${context.accountKey}`]];
    case 'token':
      return [['Authorization', `Bearer ${context.token}`]];
    case 'none':
      return [];
    case 'wrong':
      return [['Authorization', `Bearer sk-${'x'.repeat(48)}`]];
    case 'malformed': {
      const forms: Array<Array<[string, string]>> = [
        [['Authorization', 'Bearer']],
        [['Authorization', 'Bearer ']],
        [['Authorization', `Basic ${Buffer.from(`admin:${context.adminKey}`).toString('base64')}`]],
        [['Authorization', `bearer ${context.token}`]],
        [['Authorization', `Bearer  ${context.token} `]],
        [['Authorization', `Bearer ${'k'.repeat(8_000)}`]],
        [['Authorization', `Bearer ${context.token}\u00ff\u0080`]],
        [
          ['Authorization', `Bearer ${context.token}`],
          ['Authorization', `Bearer ${context.adminKey}`],
        ],
        [['authorization', `Bearer ${context.adminKey}, Bearer ${context.token}`]],
        [['x-api-key', context.adminKey]],
      ];
      return forms[variant % forms.length] ?? [];
    }
  }
}

export const authArb = (context: FuzzContext, kinds: fc.Arbitrary<KeyKind> = keyKindArb) =>
  fc.tuple(kinds, fc.nat(100)).map(([kind, variant]) => authHeaders(context, kind, variant));

/** Path ids: anything for reads; for writes only spare or absent ids, and hostile strings. */
export function idSegmentArb(context: FuzzContext, resource: 'tokens' | 'accounts' | 'channels', write: boolean): fc.Arbitrary<string> {
  const spare = context.spareIds[resource].map(String);
  const fixture = String(context.fixtureIds[resource === 'tokens' ? 'token' : resource === 'accounts' ? 'account' : 'channel']);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...spare, '999999', ...(write ? [] : [fixture, '1'])) },
    { weight: 4, arbitrary: hostileIdArb },
  );
}

/** Percent-encodes every byte but unreserved ones; never throws (lone surrogates become U+FFFD). */
export const percentEncode = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`)).join('');

/** Strings in an id's place: bad percent-encoding, numbers Number() would take, traversal. */
export const hostileIdArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%ff',
    '%',
    '%%',
    '%zz',
    '%e0%a4%a',
    '%c0%af',
    '%00',
    '%2e%2e',
    '..',
    '%2F',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '+1',
    ' 1',
    '%201',
    '9'.repeat(16),
    '9007199254740993',
    '1'.repeat(400),
    'NaN',
    '__proto__',
    'constructor',
    'search',
    'batch',
    'g-',
    'g-%ff',
    `g-${'a'.repeat(80)}`,
    '%F0%9F%98%80',
    'x'.repeat(4_000),
  ),
  // Never all digits: that could be a fixture's id.
  fc
    .string({ unit: 'binary-ascii', minLength: 1, maxLength: 12 })
    .filter((text) => !/^[0-9]+$/.test(text.trim()))
    .map(percentEncode),
);
