import { isModelAllowed } from './model-allow-list';

describe('model allow-list', () => {
  it('null allows every model, an empty list none', () => {
    expect(isModelAllowed(null, 'gpt-4o')).toBe(true);
    expect(isModelAllowed(null, 'gpt-4o-gizmo-g-abc')).toBe(true);
    expect(isModelAllowed([], 'gpt-4o')).toBe(false);
  });

  it.each([
    [['gpt-4o-mini'], 'gpt-4o-mini', true],
    [['gpt-4o-mini'], 'gpt-4o', false],
    [['gpt-4o-mini'], 'GPT-4o-mini', false],
    [['gpt-4o-*'], 'gpt-4o-mini', true],
    [['gpt-4o-*'], 'gpt-4o', false],
    [['claude-?-haiku'], 'claude-3-haiku', true],
    [['*'], 'anything', true],
    [['gpt-4o-mini', 'claude-*'], 'claude-3-5-sonnet', true],
  ])('%p allows %s: %s', (allowList, model, expected) => {
    expect(isModelAllowed(allowList, model)).toBe(expected);
  });

  describe('gizmo names are matched as sent', () => {
    const gizmo = 'gpt-4o-gizmo-g-abc';

    it.each([['*-gizmo-*'], ['gpt-4o-gizmo-*'], [gizmo], ['*-gizmo-g-abc'], ['gpt-4o*']])('%s allows it', (pattern) => {
      expect(isModelAllowed([pattern], gizmo)).toBe(true);
    });

    it('the plain family does not allow its gizmo names', () => {
      expect(isModelAllowed(['gpt-4o'], gizmo)).toBe(false);
    });

    it('another family or another assistant does not', () => {
      expect(isModelAllowed(['gpt-4o-mini-gizmo-*'], gizmo)).toBe(false);
      expect(isModelAllowed(['gpt-4o-gizmo-g-xyz'], gizmo)).toBe(false);
    });

    it('a gizmo pattern does not allow the plain family', () => {
      expect(isModelAllowed(['*-gizmo-*'], 'gpt-4o')).toBe(false);
    });
  });
});
