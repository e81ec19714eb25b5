import type { Account } from '@chat-relay/contract';
import { useState, type FormEvent } from 'react';
import { formatMicroUsd } from '../../api/format';
import { unwrap } from '../../api/unwrap';
import { ErrorNotice } from '../../components/error-notice';
import { CheckboxField, SelectField, TextField } from '../../components/field';
import { FormErrors } from '../../components/form-errors';
import { useBusyAction } from '../../hooks/use-busy-action';
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

/** `New account` / `Edit`: name, role, status, quota. Created: hands back the new account with its access key. */
export function AccountEditor(props: { account?: Account; onCreated: (account: Account & { access_key: string }) => void; onSaved: (account: Account) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { account } = props;
  const [values, setValues] = useState<AccountFormValues>(() => (account ? accountFormFrom(account) : emptyAccountForm()));
  const [errors, setErrors] = useState<string[]>([]);
  const save = useBusyAction();
  const set = <K extends keyof AccountFormValues>(field: K, value: AccountFormValues[K]) => setValues((current) => ({ ...current, [field]: value }));
  const title = account ? `Edit account “${account.name}”` : 'New account';

  const create = async () => {
    const outcome = toAccountCreate(values);
    setErrors(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) return;
    const created = await save.run(async () => unwrap(await client.api.accounts.createAccount({ body: outcome.body }), 201));
    if (created) props.onCreated(created);
  };
  const update = async (original: Account) => {
    const outcome = toAccountUpdate(values, original);
    setErrors(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) return;
    const saved = await save.run(async () => unwrap(await client.api.accounts.updateAccount({ params: { id: original.id }, body: outcome.body }), 200));
    if (saved) props.onSaved(saved);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void (account ? update(account) : create());
  };

  return (
    <form className="panel" aria-label={title} onSubmit={submit} noValidate>
      <h2>{title}</h2>
      <div className="form-grid">
        <TextField label="Name" required value={values.name} onChange={(event) => set('name', event.target.value)} />
        <SelectField label="Role" value={values.role} options={ROLE_OPTIONS} onChange={(event) => set('role', event.target.value as Account['role'])} />
        <SelectField label="Status" value={values.status} options={STATUS_OPTIONS} onChange={(event) => set('status', event.target.value as Account['status'])} />
        <TextField label="Quota (USD)" inputMode="decimal" value={values.quota} onChange={(event) => set('quota', event.target.value)} hint="Empty: no limit." />
      </div>
      {account && (
        <CheckboxField
          label={`Reset the spend (now ${formatMicroUsd(account.quota_used)})`}
          checked={values.resetUsed}
          onChange={(event) => set('resetUsed', event.target.checked)}
        />
      )}
      <FormErrors errors={errors} />
      <ErrorNotice error={save.error} />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={save.busy}>
          {account ? 'Save account' : 'Create account'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
