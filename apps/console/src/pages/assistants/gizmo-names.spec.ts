import { gizmoNamesFor, gizmoTemplate, matchesGlob, modelSuggestions } from './gizmo-names';

describe('gizmo model names', () => {
  const callerModels = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'gpt-4o-gizmo-g-other'];

  it('matches globs as channels write them, treating other characters literally', () => {
    expect(matchesGlob('gpt-4o*', 'gpt-4o-mini')).toBe(true);
    expect(matchesGlob('gpt-4?', 'gpt-4o')).toBe(true);
    expect(matchesGlob('gpt-4.1', 'gpt-4x1')).toBe(false);
    expect(matchesGlob('claude*', 'gpt-4o')).toBe(false);
  });

  it('names the assistant through its plain families and the caller’s models its globs take', () => {
    expect(gizmoNamesFor({ id: 'g-abc', models: ['gpt-4.1', 'claude*'] }, callerModels)).toEqual(['gpt-4.1-gizmo-g-abc', 'claude-3-5-sonnet-gizmo-g-abc']);
  });

  it('offers the caller’s models (never gizmo names) when any family is allowed, a few at most', () => {
    expect(gizmoNamesFor({ id: 'g-abc', models: null }, callerModels, 2)).toEqual(['gpt-4o-gizmo-g-abc', 'gpt-4o-mini-gizmo-g-abc']);
    expect(gizmoNamesFor({ id: 'g-abc', models: ['o*'] }, callerModels)).toEqual([]);
    expect(gizmoTemplate('g-abc')).toBe('<family>-gizmo-g-abc');
  });

  it('suggests the caller’s models first, then each assistant’s names, once each', () => {
    expect(modelSuggestions(['gpt-4o'], [{ id: 'g-a', models: null }, { id: 'g-b', models: ['gpt-4o'] }])).toEqual(['gpt-4o', 'gpt-4o-gizmo-g-a', 'gpt-4o-gizmo-g-b']);
  });
});
