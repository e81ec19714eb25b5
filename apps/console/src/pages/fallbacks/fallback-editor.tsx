import type { FallbackRule } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { CheckboxField, TextArea, TextField } from '../../components/field';
import { useEditor } from '../../hooks/use-editor';
import { useSession } from '../../session/session';
import { emptyFallbackForm, fallbackFormFrom, toFallbackCreate, toFallbackUpdate, TRIGGER_LABELS, TRIGGERS, type FallbackFormValues } from './fallback-form';

/** `New fallback rule` / `Edit`: the model (or glob), its ordered fallbacks, the failures that trigger them, enabled. */
export function FallbackEditor(props: { rule?: FallbackRule; onSaved: (rule: FallbackRule, created: boolean) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { rule } = props;
  const editor = useEditor<FallbackFormValues>(() => (rule ? fallbackFormFrom(rule) : emptyFallbackForm()));
  const { values, set } = editor;

  const submit = async () => {
    if (rule) {
      const saved = await editor.send(toFallbackUpdate(values, rule), async (body) =>
        unwrap(await client.api.fallbacks.updateFallbackRule({ params: { id: rule.id }, body }), 200),
      );
      if (saved) props.onSaved(saved, false);
    } else {
      const created = await editor.send(toFallbackCreate(values), async (body) => unwrap(await client.api.fallbacks.createFallbackRule({ body }), 201));
      if (created) props.onSaved(created, true);
    }
  };

  return (
    <EditorForm
      title={rule ? `Edit fallback rule for ${rule.model}` : 'New fallback rule'}
      submitLabel={rule ? 'Save rule' : 'Create rule'}
      save={editor.save}
      errors={editor.errors}
      errorTitle={rule ? 'Could not save the rule' : 'Could not create the rule'}
      noValidate
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <div className="form-grid">
        <TextField
          label="Model or glob"
          required
          placeholder="claude-sonnet-4*"
          hint="The model a request names (or a glob of them)"
          value={values.model}
          onChange={(event) => set('model', event.target.value)}
        />
        <TextArea
          label="Fallback models"
          rows={3}
          placeholder={'gpt-4o\ngemini-2.5-pro'}
          hint="In order, one per line: the next one answers when a model has no channel left"
          value={values.fallbacks}
          onChange={(event) => set('fallbacks', event.target.value)}
        />
      </div>
      <fieldset className="event-checks">
        <legend>Triggers</legend>
        {TRIGGERS.map((trigger) => (
          <CheckboxField
            key={trigger}
            label={TRIGGER_LABELS[trigger]}
            checked={values.triggers.includes(trigger)}
            onChange={(event) => set('triggers', event.target.checked ? [...values.triggers, trigger] : values.triggers.filter((item) => item !== trigger))}
          />
        ))}
      </fieldset>
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(event) => set('enabled', event.target.checked)} />
    </EditorForm>
  );
}
