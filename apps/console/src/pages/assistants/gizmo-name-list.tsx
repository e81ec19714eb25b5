import type { Assistant } from '@chat-relay/contract';
import { CopyButton } from '../../components/copy-button';
import { gizmoNamesFor, gizmoTemplate } from './gizmo-names';

/** The model names callers chat with the assistant by, each with a copy button. */
export function GizmoNameList(props: { assistant: Pick<Assistant, 'id' | 'models'>; callerModels: readonly string[] }) {
  const names = gizmoNamesFor(props.assistant, props.callerModels);
  if (names.length === 0) {
    return (
      <div className="stack">
        <code>{gizmoTemplate(props.assistant.id)}</code>
        <small className="muted">Put a model family the relay routes in place of &lt;family&gt;.</small>
      </div>
    );
  }
  return (
    <ul className="gizmo-names">
      {names.map((name) => (
        <li key={name}>
          <code>{name}</code> <CopyButton text={name} label="Copy" />
        </li>
      ))}
    </ul>
  );
}
