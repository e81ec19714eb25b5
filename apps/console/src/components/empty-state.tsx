import type { ReactNode } from 'react';

/** An empty table or chart says what to do next, not just "no data". */
export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <strong>{props.title}</strong>
      {props.children && <div>{props.children}</div>}
    </div>
  );
}
