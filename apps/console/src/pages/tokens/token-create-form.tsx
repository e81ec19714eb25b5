import type { TokenCreated } from '@chat-relay/contract';
import { useState, type FormEvent } from 'react';
import { unwrap } from '../../api/unwrap';
import { ErrorNotice } from '../../components/error-notice';
import { useSession } from '../../session/session';
import { EMPTY_TOKEN_FORM, tokenCreateOf } from './token-policy';
import { TokenPolicyFields } from './token-policy-fields';

/** `New token`: the policy, then `Create token`; the created token (with its key) goes to the page. */
export function TokenCreateForm(props: { onCreated: (created: TokenCreated) => void; onCancel: () => void }) {
  const { client, isAdmin } = useSession();
  const [form, setForm] = useState(EMPTY_TOKEN_FORM);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const body = tokenCreateOf(form, isAdmin);
      props.onCreated(unwrap(await client.api.tokens.createToken({ body }), 201));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel" aria-labelledby="new-token-title" onSubmit={(event) => void submit(event)}>
      <h2 id="new-token-title">New token</h2>
      <TokenPolicyFields form={form} onChange={setForm} showAccount={isAdmin} />
      <ErrorNotice error={error} title="Could not create the token" />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create token'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
