import { gizmoModelName, parseGizmoModel } from './gizmo-model';

describe('parseGizmoModel', () => {
  it.each([
    ['gpt-4o-gizmo-g-abc123', 'gpt-4o', 'g-abc123'],
    ['gpt-4-gizmo-g-X', 'gpt-4', 'g-X'],
    ['meta-llama/Llama-3-gizmo-g-9z', 'meta-llama/Llama-3', 'g-9z'],
    // The family may itself contain "-gizmo-": the assistant is the last part.
    ['a-gizmo-b-gizmo-g-1', 'a-gizmo-b', 'g-1'],
  ])('%s → family %s, assistant %s', (model, family, assistantId) => {
    expect(parseGizmoModel(model)).toEqual({ family, assistantId });
    expect(gizmoModelName(family, assistantId)).toBe(model);
  });

  it.each([
    'gpt-4-gizmo-g-',
    'gpt-4-gizmo-x-abc',
    '-gizmo-g-abc',
    'gizmo-g-abc',
    'gpt-4-gizmo-g-abc-def',
    'gpt-4-gizmo-g-ab_c',
    'gpt-4-gizmo-G-abc',
    'gpt-4o',
    'gpt-4-gizmo-g-abc\n',
  ])('%p is a plain model name', (model) => {
    expect(parseGizmoModel(model)).toBeUndefined();
  });
});
