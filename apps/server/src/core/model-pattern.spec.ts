import { isGlob, matchesModelPattern } from './model-pattern';

describe('matchesModelPattern', () => {
  it.each([
    ['gpt-4o', 'gpt-4o', true],
    ['gpt-4o', 'gpt-4o-mini', false],
    ['gpt-4o*', 'gpt-4o-mini', true],
    ['gpt-4o*', 'gpt-4o', true],
    ['gpt-4?', 'gpt-4o', true],
    ['gpt-4?', 'gpt-4', false],
    ['*-gizmo-*', 'gpt-4o-gizmo-g-abc', true],
    ['*', 'anything/at all', true],
    ['meta-llama/*', 'meta-llama/Llama-3-8b', true],
    ['gpt.4', 'gpt-4', false],
    ['a+b', 'a+b', true],
    ['(x)*', '(x)y', true],
  ])('%s matches %s: %s', (pattern, model, expected) => {
    expect(matchesModelPattern(pattern, model)).toBe(expected);
  });

  it('tells globs from names', () => {
    expect(isGlob('gpt-*')).toBe(true);
    expect(isGlob('gpt-?')).toBe(true);
    expect(isGlob('gpt-4o')).toBe(false);
  });
});
