import type { StoreBackend } from '../testing/store-backends';
import { storageForEachTest } from './open-with-sql';

const T0 = '2026-11-29T07:00:00.000Z';
const T1 = '2026-11-29T08:00:00.000Z';

/** The behaviour every FallbackRuleStore shows, on each backend (describeEachBackend). */
export function describeFallbackRuleStore(backend: StoreBackend): void {
  const storage = storageForEachTest(backend);
  const rules = () => storage().fallbackRules;

  it('creates rules whole, lists them in id order (the first match wins), reads one back', async () => {
    expect(await rules().list()).toEqual([]);
    const claude = await rules().create({ model: 'claude-*', fallbacks: ['gpt-4o', 'gemini-2.5-pro'], triggers: ['rate_limited', 'context_length'], enabled: true }, T0);
    const exact = await rules().create({ model: 'gpt-4o', fallbacks: ['gpt-4o-mini'], triggers: ['upstream_error'], enabled: false }, T1);
    expect(claude).toStrictEqual({
      id: claude.id,
      model: 'claude-*',
      fallbacks: ['gpt-4o', 'gemini-2.5-pro'],
      triggers: ['rate_limited', 'context_length'],
      enabled: true,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(exact.id).toBeGreaterThan(claude.id);
    expect(await rules().list()).toStrictEqual([claude, exact]);
    expect(await rules().get(exact.id)).toStrictEqual(exact);
    expect(await rules().get(exact.id + 100)).toBeNull();
  });

  it('updates only the fields a patch names, and says when no rule has the id', async () => {
    const rule = await rules().create({ model: 'claude-*', fallbacks: ['gpt-4o'], triggers: ['rate_limited'], enabled: true }, T0);
    const disabled = await rules().update(rule.id, { enabled: false }, T1);
    expect(disabled).toStrictEqual({ ...rule, enabled: false, updatedAt: T1 });
    const rechained = await rules().update(rule.id, { fallbacks: ['gpt-4.1', 'gpt-4o'], triggers: ['timeout', 'no_channel'] }, T1);
    expect(rechained).toStrictEqual({ ...rule, enabled: false, fallbacks: ['gpt-4.1', 'gpt-4o'], triggers: ['timeout', 'no_channel'], updatedAt: T1 });
    expect(await rules().get(rule.id)).toStrictEqual(rechained);
    expect(await rules().update(rule.id + 100, { enabled: true }, T1)).toBeNull();
  });

  it('deletes a rule once', async () => {
    const rule = await rules().create({ model: 'x', fallbacks: ['y'], triggers: ['rate_limited'], enabled: true }, T0);
    expect(await rules().delete(rule.id)).toBe(true);
    expect(await rules().delete(rule.id)).toBe(false);
    expect(await rules().list()).toEqual([]);
  });
}
