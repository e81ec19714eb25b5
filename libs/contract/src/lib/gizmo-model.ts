/** `<family>-gizmo-<assistant id>` (SPEC §5): e.g. `gpt-4o-gizmo-g-abc123`. */
const GIZMO_MODEL = /^(?<family>.+)-gizmo-(?<assistant>g-[A-Za-z0-9]+)$/;

export interface GizmoModel {
  /** The upstream model family, routed like any model name. */
  family: string;
  assistantId: string;
}

/** The family and assistant of a gizmo model name; undefined for every other name. */
export function parseGizmoModel(model: string): GizmoModel | undefined {
  const groups = GIZMO_MODEL.exec(model)?.groups;
  if (!groups?.['family'] || !groups['assistant']) return undefined;
  return { family: groups['family'], assistantId: groups['assistant'] };
}

export const gizmoModelName = (family: string, assistantId: string): string => `${family}-gizmo-${assistantId}`;
