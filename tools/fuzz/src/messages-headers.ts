import fc from 'fast-check';
import type { FuzzContext } from './fuzz-context';

/**
 * The headers of a Messages request: Anthropic's (`anthropic-version`, `anthropic-beta`), the
 * key as Claude Code and the SDKs send it, and what they add beside.
 */

/** `anthropic-version` as clients send it, and as they should not. */
export const versionHeadersArb: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Array<[string, string]>>([['anthropic-version', '2023-06-01']]) },
  { weight: 2, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [['anthropic-version', '2023-01-01']],
      [['anthropic-version', '']],
      [['anthropic-version', 'v'.repeat(300)]],
      [['anthropic-version', '2023-06-01'], ['anthropic-version', '2099-01-01']],
    ),
  },
);

/** `anthropic-beta` values: none, Claude Code's, unknown, odd lists. */
export const betaHeadersArb: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [['anthropic-beta', 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14']],
      [['anthropic-beta', 'prompt-caching-2024-07-31']],
      [['anthropic-beta', 'context-1m-2025-08-07'], ['anthropic-beta', 'token-counting-2024-11-01']],
      [['anthropic-beta', 'oauth-2025-04-20, claude-code-20250219']],
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [['anthropic-beta', 'fuzz-beta-2099-01-01']],
      [['anthropic-beta', ',,, ,']],
      [['anthropic-beta', '']],
      [['anthropic-beta', Array.from({ length: 40 }, (_, index) => `beta-${index}`).join(',')]],
      [['anthropic-beta', 'b'.repeat(5_000)]],
      [['anthropic-beta', '__proto__']],
    ),
  },
);

/** Headers Anthropic's SDKs and Claude Code add beside the key. */
export const clientHeadersArb: fc.Arbitrary<Array<[string, string]>> = fc.constantFrom<Array<[string, string]>>(
  [],
  [['User-Agent', 'claude-cli/2.0.14 (external, cli)'], ['x-app', 'cli']],
  [['anthropic-dangerous-direct-browser-access', 'true'], ['x-stainless-lang', 'js'], ['x-stainless-retry-count', '0']],
  [['Accept', 'application/json']],
  [['x-stainless-timeout', '600']],
);

/** `x-api-key` (what Claude Code sends), Bearer (ANTHROPIC_AUTH_TOKEN), both, neither, wrong ones. */
export const messagesAuthArb = (context: FuzzContext): fc.Arbitrary<Array<[string, string]>> =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constant<Array<[string, string]>>([['x-api-key', context.token]]) },
    { weight: 5, arbitrary: fc.constant<Array<[string, string]>>([['Authorization', `Bearer ${context.token}`]]) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Array<[string, string]>>(
        [['x-api-key', context.token], ['Authorization', `Bearer ${context.token}`]],
        [['x-api-key', context.token], ['Authorization', `Bearer sk-${'x'.repeat(48)}`]],
        [['x-api-key', `sk-${'x'.repeat(48)}`], ['Authorization', `Bearer ${context.token}`]],
        [],
        [['x-api-key', `sk-ant-api03-${'x'.repeat(80)}`]],
        [['x-api-key', context.adminKey]],
        [['x-api-key', context.accountKey]],
        [['Authorization', `Bearer ${context.adminKey}`]],
        [['x-api-key', '']],
        [['x-api-key', ` ${context.token} `]],
        [['x-api-key', context.token], ['x-api-key', context.token]],
        [['X-Api-Key', `${context.token}\u00ff`]],
        [['Authorization', context.token]],
      ),
    },
  );

/** What a well-behaved client sends, now and then with one hostile part (1 in 6). */
export const cleanHeadersArb = (context: FuzzContext): fc.Arbitrary<Array<[string, string]>> =>
  fc.tuple(fc.nat(5), fc.constantFrom<Array<[string, string]>>([['x-api-key', context.token]], [['x-api-key', context.token]], [['Authorization', `Bearer ${context.token}`]]), messagesAuthArb(context), betaHeadersArb, fc.constantFrom<Array<[string, string]>>([], [], [['anthropic-beta', 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14']])).map(
    ([roll, auth, hostileAuth, hostileBeta, beta]) => [...(roll === 0 ? hostileAuth : auth), ['anthropic-version', '2023-06-01'], ...(roll === 1 ? hostileBeta : beta)],
  );
