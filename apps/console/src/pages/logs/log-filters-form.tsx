import { ENDPOINTS } from '@chat-relay/contract';
import type { FormEvent } from 'react';
import { SelectField, TextField } from '../../components/field';
import { EMPTY_FILTERS, type LogFilterForm } from './log-filters';

const ENDPOINT_OPTIONS = [{ value: '', label: 'Any' }, ...ENDPOINTS.map((endpoint) => ({ value: endpoint, label: endpoint }))];

interface LogFiltersFormProps {
  form: LogFilterForm;
  onChange: (form: LogFilterForm) => void;
  onApply: () => void;
  /** Only the admin filters by account; an account sees its own logs. */
  showAccount: boolean;
}

/** Every filter of `GET /api/logs`; applied to the URL, so a link reproduces the view. */
export function LogFiltersForm(props: LogFiltersFormProps) {
  const { form, onChange } = props;
  const field = (name: keyof LogFilterForm) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => onChange({ ...form, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onApply();
  };
  return (
    <form className="panel" aria-label="Log filters" onSubmit={submit}>
      <div className="form-grid">
        <TextField label="Token id" type="number" min={1} inputMode="numeric" {...field('token_id')} />
        {props.showAccount && <TextField label="Account id" type="number" min={1} inputMode="numeric" {...field('account_id')} />}
        <TextField label="Model" {...field('model')} hint="The model asked for, exactly" />
        <TextField label="Status" type="number" min={100} max={599} inputMode="numeric" {...field('status')} hint="HTTP status, e.g. 429" />
        <SelectField label="Endpoint" options={ENDPOINT_OPTIONS} {...field('endpoint')} />
        <TextField label="From" type="datetime-local" {...field('from')} />
        <TextField label="To" type="datetime-local" {...field('to')} />
      </div>
      <div className="toolbar">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button type="button" onClick={() => onChange(EMPTY_FILTERS)}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
