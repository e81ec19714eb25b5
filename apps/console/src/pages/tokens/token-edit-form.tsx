import type { Token } from '@chat-relay/contract';
import { useState, type FormEvent } from 'react';
import { unwrap } from '../../api/unwrap';
import { ErrorNotice } from '../../components/error-notice';
import { useSession } from '../../session/session';
import { formOfToken, tokenUpdateOf } from './token-policy';
import { TokenPolicyFields } from './token-policy-fields';

/** `Edit`: the token's policy; `Save changes` sends only what changed. */
export function TokenEditForm(props: { token: Token; onSaved: (token: Token) => void; onCancel: () => void }) {
  const { client } = useSession();
  const [initial] = useState(() => formOfToken(props.token));
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const body = tokenUpdateOf(initial, form);
      if (body === null) {
        props.onCancel();
        return;
      }
      setBusy(true);
      props.onSaved(unwrap(await client.api.tokens.updateToken({ params: { id: props.token.id }, body }), 200));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel" aria-labelledby="edit-token-title" onSubmit={(event) => void submit(event)}>
      <h2 id="edit-token-title">Edit token {props.token.name}</h2>
      <TokenPolicyFields form={form} onChange={setForm} showStatus />
      <ErrorNotice error={error} title="Could not save the token" />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
