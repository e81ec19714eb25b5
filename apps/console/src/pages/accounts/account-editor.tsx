import type { Account } from '@chat-relay/contract';
import { formatMicroUsd } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { CheckboxField, SelectField, TextField } from '../../components/field';
import { LimitFields } from '../../components/limit-fields';
import { useEditor } from '../../hooks/use-editor';
import { useSession } from '../../session/session';
import { accountFormFrom, emptyAccountForm, toAccountCreate, toAccountUpdate, type AccountFormValues } from './account-form';

const ROLE_OPTIONS = [
  { value: 'user', label: 'user (its own tokens, assistants and logs)' },
  { value: 'admin', label: 'admin (everything)' },
];
const STATUS_OPTIONS = [
  { value: 'active', label: 'active' },
  { value: 'disabled', label: 'disabled (its keys and tokens stop working)' },
];

/** `New account` / `Edit`: name, role, status, quota, periodic limits and alert thresholds. Created: hands back the new account with its access key. */
export function AccountEditor(props: { account?: Account; onCreated: (account: Account & { access_key: string }) => void; onSaved: (account: Account) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { account } = props;
  const editor = useEditor<AccountFormValues>(() => (account ? accountFormFrom(account) : emptyAccountForm()));
  const { values, set } = editor;

  const create = async () => {
    const created = await editor.send(toAccountCreate(values), async (body) => unwrap(await client.api.accounts.createAccount({ body }), 201));
    if (created) props.onCreated(created);
  };
  const update = async (original: Account) => {
    const saved = await editor.send(toAccountUpdate(values, original), async (body) => unwrap(await client.api.accounts.updateAccount({ params: { id: original.id }, body }), 200));
    if (saved) props.onSaved(saved);
  };

  return (
    <EditorForm
      title={account ? `Edit account “${account.name}”` : 'New account'}
      submitLabel={account ? 'Save account' : 'Create account'}
      save={editor.save}
      errors={editor.errors}
      noValidate
      onSubmit={() => (account ? update(account) : create())}
      onCancel={props.onCancel}
    >
      <div className="form-grid">
        <TextField label="Name" required value={values.name} onChange={(event) => set('name', event.target.value)} />
        <SelectField label="Role" value={values.role} options={ROLE_OPTIONS} onChange={(event) => set('role', event.target.value as Account['role'])} />
        <SelectField label="Status" value={values.status} options={STATUS_OPTIONS} onChange={(event) => set('status', event.target.value as Account['status'])} />
        <TextField label="Quota (USD)" inputMode="decimal" value={values.quota} onChange={(event) => set('quota', event.target.value)} hint="Empty: no limit." />
      </div>
      <LimitFields form={values.limits} onChange={(limits) => set('limits', limits)} />
      {account && (
        <CheckboxField
          label={`Reset the spend (now ${formatMicroUsd(account.quota_used)})`}
          checked={values.resetUsed}
          onChange={(event) => set('resetUsed', event.target.checked)}
        />
      )}
    </EditorForm>
  );
}
