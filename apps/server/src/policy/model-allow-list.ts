import { matchesModelPattern } from '../core/model-pattern';

/**
 * A token's `models` allow-list (SPEC §4) against the model name the caller sent: names or
 * globs (`*` any run, `?` one character), null = every model.
 *
 * Gizmo names (`gpt-4o-gizmo-g-abc`, SPEC §5) are matched as sent, like any other name: the
 * allow-list is about the names a caller may use, not the upstream family behind them. So the
 * plain family `gpt-4o` does NOT admit `gpt-4o-gizmo-g-abc`; the exact gizmo name,
 * `gpt-4o-gizmo-*` or `*-gizmo-*` do (and so does `gpt-4o*`, which covers every name that
 * starts that way).
 */
export function isModelAllowed(allowList: readonly string[] | null, model: string): boolean {
  return allowList === null || allowList.some((pattern) => matchesModelPattern(pattern, model));
}
