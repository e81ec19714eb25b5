import { gizmoModelName, type Assistant } from '@chat-relay/contract';

/** A model pattern as channels and assistants write them: `*` any run of characters, `?` one. */
export function matchesGlob(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}

const isGlob = (pattern: string): boolean => /[*?]/.test(pattern);

/** How to write a gizmo name when no family can be named for the caller. */
export const gizmoTemplate = (assistantId: string): string => gizmoModelName('<family>', assistantId);

/**
 * Model names that chat with the assistant (`<family>-gizmo-<id>`): its plain allowed families,
 * and the caller's models its globs (or, allowing any family, all of them) take; at most `limit`.
 */
export function gizmoNamesFor(assistant: Pick<Assistant, 'id' | 'models'>, callerModels: readonly string[], limit = 3): string[] {
  const usable = callerModels.filter((model) => !model.includes('-gizmo-'));
  const families =
    assistant.models === null
      ? usable
      : [...assistant.models.filter((model) => !isGlob(model)), ...usable.filter((model) => assistant.models?.some((pattern) => isGlob(pattern) && matchesGlob(pattern, model)))];
  return [...new Set(families)].slice(0, limit).map((family) => gizmoModelName(family, assistant.id));
}

/** The playground's model suggestions: the caller's models, then a few gizmo names per assistant. */
export function modelSuggestions(callerModels: readonly string[], assistants: ReadonlyArray<Pick<Assistant, 'id' | 'models'>>): string[] {
  return [...new Set([...callerModels, ...assistants.flatMap((assistant) => gizmoNamesFor(assistant, callerModels))])];
}
