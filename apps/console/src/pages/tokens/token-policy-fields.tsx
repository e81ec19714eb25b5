import { SelectField, TextArea, TextField } from '../../components/field';
import { LimitFields } from '../../components/limit-fields';
import type { TextFormField, TokenPolicyForm } from './token-policy';

interface TokenPolicyFieldsProps {
  form: TokenPolicyForm;
  onChange: (form: TokenPolicyForm) => void;
  /** Create: who owns the token (admin only). */
  showAccount?: boolean;
  /** Edit: enable or disable. */
  showStatus?: boolean;
}

/** The policy a token carries (SPEC §4), shared by the create and edit forms. */
export function TokenPolicyFields(props: TokenPolicyFieldsProps) {
  const { form, onChange } = props;
  const field = (name: TextFormField) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => onChange({ ...form, [name]: event.target.value }),
  });
  return (
    <div className="form-grid">
      <TextField label="Name" required maxLength={200} {...field('name')} />
      {props.showStatus && (
        <SelectField
          label="Status"
          options={[
            { value: 'active', label: 'Active' },
            { value: 'disabled', label: 'Disabled' },
          ]}
          {...field('status')}
        />
      )}
      {props.showAccount && <TextField label="Account id" type="number" min={1} inputMode="numeric" hint="Empty: your own account" {...field('accountId')} />}
      <TextField label="Quota (USD)" inputMode="decimal" placeholder="No limit" hint="Dollars, up to 6 decimals; empty for no limit" {...field('quotaUsd')} />
      <TextField label="Expires" type="datetime-local" hint="Your local time; empty: never" {...field('expires')} />
      <TextArea label="Models" rows={3} placeholder="Every model" hint="Names or globs (gpt-4o*), comma or line separated" {...field('models')} />
      <TextArea label="Allowed IPs" rows={3} placeholder="Any address" hint="Addresses or CIDR ranges, comma or line separated" {...field('allowedIps')} />
      <TextField label="Requests per minute" type="number" min={1} inputMode="numeric" placeholder="No limit" {...field('rpm')} />
      <TextField label="Tokens per minute" type="number" min={1} inputMode="numeric" placeholder="No limit" {...field('tpm')} />
      <TextField label="Concurrent requests" type="number" min={1} inputMode="numeric" placeholder="No limit" {...field('concurrency')} />
      <div className="form-wide">
        <LimitFields form={form.limits} onChange={(limits) => onChange({ ...form, limits })} />
      </div>
    </div>
  );
}
