import { unwrap } from '@chat-relay/client';
import { useSession } from '../../session/session';
import { deleteQuestion, describeBatch, type BatchAction } from './token-batch';

interface TokenBatchBarProps {
  selectedIds: readonly number[];
  onDone: (outcome: string) => void;
  onError: (error: unknown) => void;
  /** Opens the batch edit of periodic limits, time zone and alert thresholds. */
  onSetLimits: () => void;
}

const BUTTONS: ReadonlyArray<{ action: BatchAction; label: string; danger?: boolean }> = [
  { action: 'enable', label: 'Enable selected' },
  { action: 'disable', label: 'Disable selected' },
  { action: 'delete', label: 'Delete selected', danger: true },
];

/** Enable, disable or delete the selected tokens in one request (deleting asks first), or set their limits. */
export function TokenBatchBar(props: TokenBatchBarProps) {
  const { client } = useSession();
  const count = props.selectedIds.length;

  const run = async (action: BatchAction) => {
    if (action === 'delete' && !window.confirm(deleteQuestion(count))) return;
    try {
      const result = unwrap(await client.api.tokens.batchTokens({ body: { ids: [...props.selectedIds], action } }), 200);
      props.onDone(describeBatch(result));
    } catch (error) {
      props.onError(error);
    }
  };

  return (
    <div className="toolbar batch-bar" role="group" aria-label="Selected tokens">
      <span className="muted">{count === 0 ? 'Select tokens for batch actions' : `${count} selected`}</span>
      {BUTTONS.map((button) => (
        <button key={button.action} type="button" className={button.danger ? 'danger' : undefined} disabled={count === 0} onClick={() => void run(button.action)}>
          {button.label}
        </button>
      ))}
      <button type="button" disabled={count === 0} onClick={props.onSetLimits}>
        Set limits on selected
      </button>
    </div>
  );
}
