import { fallbackRuleFixture } from '../../testing/fixtures';
import { emptyFallbackForm, fallbackFormFrom, toFallbackCreate, toFallbackUpdate } from './fallback-form';

describe('fallback rule form → API body', () => {
  it('creates with the chain in the typed order and the triggers in the enum order; the defaults ticked at first', () => {
    expect(emptyFallbackForm().triggers).toEqual(['rate_limited', 'upstream_error', 'timeout', 'no_channel']);
    expect(
      toFallbackCreate({ model: ' claude-* ', fallbacks: 'gpt-4o\n gemini-2.5-pro, gpt-4o\n\n', triggers: ['context_length', 'rate_limited'], enabled: true }),
    ).toEqual({ ok: true, body: { model: 'claude-*', fallbacks: ['gpt-4o', 'gemini-2.5-pro'], triggers: ['rate_limited', 'context_length'], enabled: true } });
  });

  it('names what is wrong: no chain, a model falling back to itself, no trigger, no model', () => {
    const base = { ...emptyFallbackForm(), model: 'gpt-4o', fallbacks: 'gpt-4o-mini' };
    expect(toFallbackCreate({ ...base, fallbacks: ' , ' })).toEqual({ ok: false, errors: ['Fallback models: name at least one model to fall back to'] });
    expect(toFallbackCreate({ ...base, fallbacks: 'o3\ngpt-4o' })).toEqual({ ok: false, errors: ['Fallback models: "gpt-4o" cannot fall back to itself'] });
    expect(toFallbackCreate({ ...base, triggers: [] })).toEqual({ ok: false, errors: ['Triggers: tick at least one failure that falls back'] });
    expect(toFallbackCreate({ ...base, model: '  ' })).toEqual({ ok: false, errors: [expect.stringMatching(/^Model or glob: /)] });
  });

  it('edits only what changed; a new order of the chain is a change, a new order of ticks is not', () => {
    const rule = fallbackRuleFixture();
    const form = fallbackFormFrom(rule);
    expect(toFallbackUpdate({ ...form, triggers: [...form.triggers].reverse() }, rule)).toEqual({ ok: false, errors: ['Nothing changed.'] });
    expect(toFallbackUpdate({ ...form, fallbacks: 'gemini-2.5-pro\ngpt-4o' }, rule)).toEqual({ ok: true, body: { fallbacks: ['gemini-2.5-pro', 'gpt-4o'] } });
    expect(toFallbackUpdate({ ...form, enabled: false, triggers: [...form.triggers, 'content_filtered'] }, rule)).toEqual({
      ok: true,
      body: { triggers: ['rate_limited', 'upstream_error', 'timeout', 'no_channel', 'content_filtered'], enabled: false },
    });
  });
});
