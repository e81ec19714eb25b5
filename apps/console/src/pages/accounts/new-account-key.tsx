import { CopyButton } from '../../components/copy-button';

/** The new account's access key, shown this once: `Done` forgets it. */
export function NewAccountKey(props: { name: string; accessKey: string; onDone: () => void }) {
  return (
    <section className="panel notice-ok" aria-labelledby="new-account-key-title">
      <h2 id="new-account-key-title">Access key for “{props.name}”</h2>
      <p>Copy it now: it is shown only this once. The account signs in to this console with it and manages its own tokens.</p>
      <p className="secret" data-testid="new-account-key">
        {props.accessKey}
      </p>
      <div className="toolbar">
        <CopyButton text={props.accessKey} label="Copy key" />
        <button type="button" className="primary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
