import type { Token } from '@chat-relay/contract';
import { useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useSession } from '../../session/session';
import { formOfToken, tokenUpdateOf } from './token-policy';
import { TokenPolicyFields } from './token-policy-fields';

/** `Edit`: the token's policy; `Save changes` sends only what changed. */
export function TokenEditForm(props: { token: Token; onSaved: (token: Token) => void; onCancel: () => void }) {
  const { client } = useSession();
  const [initial] = useState(() => formOfToken(props.token));
  const [form, setForm] = useState(initial);
  const save = useBusyAction();

  const submit = async () => {
    // tokenUpdateOf throws what is wrong with the form; null: nothing changed, so nothing to send.
    const saved = await save.run(async () => {
      const body = tokenUpdateOf(initial, form);
      return body === null ? null : unwrap(await client.api.tokens.updateToken({ params: { id: props.token.id }, body }), 200);
    });
    if (saved === null) props.onCancel();
    else if (saved) props.onSaved(saved);
  };

  return (
    <EditorForm
      title={`Edit token ${props.token.name}`}
      submitLabel="Save changes"
      busyLabel="Saving…"
      save={save}
      errorTitle="Could not save the token"
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <TokenPolicyFields form={form} onChange={setForm} showStatus />
    </EditorForm>
  );
}
