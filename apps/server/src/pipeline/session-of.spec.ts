import type { ChatCompletionRequest } from '@chat-relay/contract';
import { agentBody, readAgentRequest } from '../../test/e2e/agent-fixtures';
import { MIN_PREFIX_AFFINITY_BYTES, sessionOf } from './session-of';

const big = MIN_PREFIX_AFFINITY_BYTES;
const ask = (messages: ChatCompletionRequest['messages'], extra: Record<string, unknown> = {}): ChatCompletionRequest => ({
  model: 'claude-sonnet-4-5',
  messages,
  ...extra,
});
const system = { role: 'system' as const, content: 'You are a coding agent. '.repeat(50) };

describe('sessionOf', () => {
  it("names a session by prompt_cache_key first, then Codex's and Claude Code's session headers, then user", () => {
    const request = ask([{ role: 'user', content: 'hi' }], { prompt_cache_key: 'pck-1', user: 'u-1' });
    expect(sessionOf({ 'session-id': 's-1' }, request, 10)).toBe('key:pck-1');
    expect(sessionOf({ 'session-id': 's-1' }, { ...request, prompt_cache_key: undefined }, 10)).toBe('session:s-1');
    expect(sessionOf({ 'x-claude-code-session-id': 's-2' }, { ...request, prompt_cache_key: undefined }, 10)).toBe('session:s-2');
    expect(sessionOf({}, { ...request, prompt_cache_key: undefined }, 10)).toBe('user:u-1');
  });

  it('hashes a name too long for a key', () => {
    const name = sessionOf({}, ask([{ role: 'user', content: 'hi' }], { prompt_cache_key: 'x'.repeat(500) }), 10);
    expect(name).toMatch(/^key#[\w-]{27}$/);
  });

  it("recognises the real CLIs' sessions in their recorded requests", () => {
    const codex = readAgentRequest('codex');
    const codexSession = codex.headers['session-id'];
    expect(codexSession).toMatch(/^[\w-]{36}$/);
    // Codex: the Responses body's prompt_cache_key, carried into the hub request, is its session id; so is its header.
    const hi = ask([{ role: 'user', content: 'hi' }]);
    expect(sessionOf(codex.headers, { ...hi, prompt_cache_key: agentBody(codex)['prompt_cache_key'] }, 10)).toBe(`key:${codexSession}`);
    expect(sessionOf(codex.headers, hi, 10)).toBe(`session:${codexSession}`);
    const claude = readAgentRequest('claudeCode');
    const claudeSession = claude.headers['x-claude-code-session-id'];
    expect(sessionOf(claude.headers, hi, 10)).toBe(`session:${claudeSession}`);
    // Without the header, metadata.user_id (the hub's `user`) still holds the session id.
    const userId = (agentBody(claude)['metadata'] as { user_id: string }).user_id;
    expect(userId).toContain(claudeSession);
    expect(sessionOf({}, { ...hi, user: userId }, 10)).toBe(`user:${userId}`);
  });

  it('without a name, hashes the stable prefix (first message, first non-system one) of a prompt long enough to cache', () => {
    const turn1 = ask([system, { role: 'user', content: 'Fix the failing test in src/app.ts' }]);
    const turn5 = ask([
      ...turn1.messages,
      { role: 'assistant', content: 'Looking.' },
      { role: 'user', content: 'And now the lint.' },
    ]);
    const other = ask([system, { role: 'user', content: 'Write a README' }]);
    const first = sessionOf({}, turn1, big);
    expect(first).toMatch(/^prefix:/);
    expect(sessionOf({}, turn5, big)).toBe(first);
    expect(sessionOf({}, other, big)).not.toBe(first);
    expect(sessionOf({}, ask([{ role: 'user', content: [{ type: 'text', text: 'Fix the failing test' }] }]), big)).toMatch(/^prefix:/);
  });

  it('pins no short unnamed request: weights keep spreading them', () => {
    expect(sessionOf({}, ask([system, { role: 'user', content: 'hi' }]), big - 1)).toBeUndefined();
  });
});
