import { useState } from 'react';
import { useBusyAction } from '../hooks/use-busy-action';
import { ErrorNotice } from './error-notice';

/**
 * A destructive button that asks first, in place (no browser dialog, which automation dismisses):
 * `Delete` → the question with `Confirm delete` and `Cancel`; the relay's refusal is shown here.
 */
export function ConfirmAction(props: { label?: string; question: string; confirmLabel?: string; onConfirm: () => Promise<unknown>; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const action = useBusyAction();
  const confirm = async () => {
    await action.run(async () => {
      await props.onConfirm();
      setAsking(false);
    });
  };
  if (!asking) {
    return (
      <button type="button" className="danger" disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label ?? 'Delete'}
      </button>
    );
  }
  return (
    <span role="group" aria-label={props.question} className="confirm-action">
      <span>{props.question}</span>{' '}
      <button type="button" className="danger" disabled={action.busy} onClick={() => void confirm()}>
        {props.confirmLabel ?? 'Confirm delete'}
      </button>{' '}
      <button type="button" disabled={action.busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorNotice error={action.error} />
    </span>
  );
}
