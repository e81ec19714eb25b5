import type { LimitWindow } from '@chat-relay/contract';
import { windowBarOf } from '../api/window-bar';

/**
 * A bar per periodic-limit window: used / limit, the percentage and when it resets (the local
 * time on hover); amber from 80 %, red at 100 %. `compact` for a table cell.
 */
export function WindowBars(props: { windows: readonly LimitWindow[]; nowMs?: number; compact?: boolean; label?: string }) {
  if (props.windows.length === 0) return <span className="muted">None</span>;
  const now = props.nowMs ?? Date.now();
  return (
    <ul className={`window-bars${props.compact ? ' window-bars-compact' : ''}`} aria-label={props.label ?? 'Limit windows'}>
      {props.windows.map((window) => {
        const bar = windowBarOf(window, now);
        return (
          <li key={`${window.period}/${window.metric}`} className={`window-bar window-${bar.level}`}>
            <div className="window-bar-text">
              <strong>{bar.label}</strong>{' '}
              <span>
                {bar.used} / {bar.limit} · {bar.percent}%
              </span>{' '}
              <span className="muted" title={bar.resetsAtLocal}>
                {bar.resetsIn}
              </span>
            </div>
            <div
              className="window-track"
              role="meter"
              aria-label={bar.label}
              aria-valuemin={0}
              aria-valuemax={window.limit}
              aria-valuenow={Math.min(window.used, window.limit)}
              aria-valuetext={`${bar.used} of ${bar.limit} (${bar.percent}%), ${bar.resetsIn}`}
            >
              <div className="window-fill" style={{ width: `${bar.width}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
