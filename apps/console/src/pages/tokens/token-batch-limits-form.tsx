import { unwrap } from '@chat-relay/client';
import { useState } from 'react';
import { EMPTY_LIMITS_FORM, type LimitsForm } from '../../api/limits-form';
import { EditorForm } from '../../components/editor-form';
import { CheckboxField } from '../../components/field';
import { LimitFields } from '../../components/limit-fields';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useSession } from '../../session/session';
import { batchLimitsUpdateOf, describeBatch, type BatchLimitsChoice } from './token-batch';

/**
 * `Set limits on selected`: periodic limits, time zone and/or alert thresholds set on every
 * selected token in one batch request; only the ticked parts change.
 */
export function TokenBatchLimitsForm(props: { selectedIds: readonly number[]; onDone: (outcome: string) => void; onCancel: () => void }) {
  const { client } = useSession();
  const [form, setForm] = useState<LimitsForm>(EMPTY_LIMITS_FORM);
  const [choice, setChoice] = useState<BatchLimitsChoice>({ periodicLimits: true, timeZone: false, alertThresholds: false });
  const [errors, setErrors] = useState<string[]>([]);
  const save = useBusyAction();
  const count = props.selectedIds.length;

  const submit = async () => {
    const outcome = batchLimitsUpdateOf(form, choice);
    setErrors(outcome.ok ? [] : [outcome.error]);
    if (!outcome.ok) return;
    const result = await save.run(async () =>
      unwrap(await client.api.tokens.batchTokens({ body: { ids: [...props.selectedIds], action: 'update', update: outcome.update } }), 200),
    );
    if (result) props.onDone(describeBatch(result));
  };

  return (
    <EditorForm
      title={`Limits for ${count} selected token${count === 1 ? '' : 's'}`}
      submitLabel="Apply to selected"
      busyLabel="Applying…"
      save={save}
      errors={errors}
      errorTitle="Could not update the tokens"
      noValidate
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <div className="toolbar">
        <CheckboxField label="Replace periodic limits" checked={choice.periodicLimits} onChange={(event) => setChoice({ ...choice, periodicLimits: event.target.checked })} />
        <CheckboxField label="Set time zone" checked={choice.timeZone} onChange={(event) => setChoice({ ...choice, timeZone: event.target.checked })} />
        <CheckboxField label="Set alert thresholds" checked={choice.alertThresholds} onChange={(event) => setChoice({ ...choice, alertThresholds: event.target.checked })} />
      </div>
      <p className="muted">The ticked parts replace each token’s own; no rows with “Replace periodic limits” removes them.</p>
      <LimitFields form={form} onChange={setForm} showTimeZone={choice.timeZone} showThresholds={choice.alertThresholds} />
    </EditorForm>
  );
}
