import type { TokenCreated } from '@chat-relay/contract';
import { useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useSession } from '../../session/session';
import { EMPTY_TOKEN_FORM, tokenCreateOf } from './token-policy';
import { TokenPolicyFields } from './token-policy-fields';

/** `New token`: the policy, then `Create token`; the created token (with its key) goes to the page. */
export function TokenCreateForm(props: { onCreated: (created: TokenCreated) => void; onCancel: () => void }) {
  const { client, isAdmin } = useSession();
  const [form, setForm] = useState(EMPTY_TOKEN_FORM);
  const save = useBusyAction();

  const submit = async () => {
    // tokenCreateOf throws what is wrong with the form, shown like the relay's refusal.
    const created = await save.run(async () => unwrap(await client.api.tokens.createToken({ body: tokenCreateOf(form, isAdmin) }), 201));
    if (created) props.onCreated(created);
  };

  return (
    <EditorForm
      title="New token"
      submitLabel="Create token"
      busyLabel="Creating…"
      save={save}
      errorTitle="Could not create the token"
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <TokenPolicyFields form={form} onChange={setForm} showAccount={isAdmin} />
    </EditorForm>
  );
}
