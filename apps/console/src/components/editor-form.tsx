import type { ReactNode } from 'react';
import type { BusyAction } from '../hooks/use-busy-action';
import { ErrorNotice } from './error-notice';
import { FormErrors } from './form-errors';

/**
 * The shell of a create/edit panel: the form named by its heading, the fields, what the form
 * found wrong, the relay's refusal, then the submit button (disabled while busy) and Cancel.
 */
export function EditorForm(props: {
  title: string;
  submitLabel: string;
  /** The submit button's text while busy; the submit label unless given. */
  busyLabel?: string;
  /** The saving request: busy disables the submit button, its failure shows above it. */
  save: Pick<BusyAction, 'busy' | 'error'>;
  errorTitle?: string;
  errors?: readonly string[];
  /** Leave the checks to the form's own (it lists what is wrong by field) instead of the browser's. */
  noValidate?: boolean;
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="panel"
      aria-label={props.title}
      noValidate={props.noValidate}
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSubmit();
      }}
    >
      <h2>{props.title}</h2>
      {props.children}
      <FormErrors errors={props.errors ?? []} />
      <ErrorNotice error={props.save.error} title={props.errorTitle} />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={props.save.busy}>
          {props.save.busy && props.busyLabel ? props.busyLabel : props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
