import type { Assistant, AssistantVisibility } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { SelectField, TextArea, TextField } from '../../components/field';
import { useEditor } from '../../hooks/use-editor';
import { useSession } from '../../session/session';
import { assistantFormFrom, emptyAssistantForm, toAssistantCreate, toAssistantUpdate, type AssistantFormValues } from './assistant-form';

const PRIVATE_OPTION = { value: 'private', label: 'private (this account’s tokens only)' };
const PUBLIC_OPTION = { value: 'public', label: 'public (every caller)' };

/** Only the admin publishes (issue 26); an account sees `public` only on one published before, to make it private. */
const visibilityOptions = (isAdmin: boolean, current: AssistantVisibility) => (isAdmin || current === 'public' ? [PRIVATE_OPTION, PUBLIC_OPTION] : [PRIVATE_OPTION]);

/** `New assistant` / `Edit`: the system prompt, sampling settings, tools and allowed model families. */
export function AssistantEditor(props: { assistant?: Assistant; onSaved: (assistant: Assistant) => void; onCancel: () => void }) {
  const { client, isAdmin } = useSession();
  const { assistant } = props;
  const editor = useEditor<AssistantFormValues>(() => (assistant ? assistantFormFrom(assistant) : emptyAssistantForm()));
  const { values, set } = editor;

  const create = () => editor.send(toAssistantCreate(values), async (body) => unwrap(await client.api.assistants.createAssistant({ body }), 201));
  const update = (original: Assistant) =>
    editor.send(toAssistantUpdate(values, original), async (body) =>
      unwrap(await client.api.assistants.updateAssistant({ params: { id: original.id }, query: { account_id: original.account_id }, body }), 200),
    );
  const submit = async () => {
    const saved = assistant ? await update(assistant) : await create();
    if (saved) props.onSaved(saved);
  };

  return (
    <EditorForm
      title={assistant ? `Edit assistant “${assistant.name}”` : 'New assistant'}
      submitLabel={assistant ? 'Save assistant' : 'Create assistant'}
      save={editor.save}
      errors={editor.errors}
      noValidate
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <div className="form-grid">
        <TextField label="Name" required value={values.name} onChange={(event) => set('name', event.target.value)} />
        <TextField
          label="ID"
          value={values.id}
          readOnly={assistant !== undefined}
          onChange={(event) => set('id', event.target.value)}
          hint={assistant ? 'The id cannot change: callers name it.' : 'Optional: g- and letters or digits (g-support). Empty: one is made up.'}
        />
        <SelectField
          label="Visibility"
          value={values.visibility}
          options={visibilityOptions(isAdmin, assistant?.visibility ?? 'private')}
          onChange={(event) => set('visibility', event.target.value as AssistantVisibility)}
          hint={
            isAdmin
              ? 'Public: every account may use it. Publishing an id another account’s public assistant holds takes it back (theirs becomes private).'
              : 'Only the admin publishes assistants; a public one can only be made private here.'
          }
        />
        <TextField label="Temperature" inputMode="decimal" value={values.temperature} onChange={(event) => set('temperature', event.target.value)} hint="0–2; empty: the caller’s or the model’s." />
        <TextField label="Top P" inputMode="decimal" value={values.topP} onChange={(event) => set('topP', event.target.value)} hint="0–1; empty: not set." />
        <TextField label="Max tokens" inputMode="numeric" value={values.maxTokens} onChange={(event) => set('maxTokens', event.target.value)} hint="Empty: no limit of its own." />
      </div>
      <TextField label="Description" value={values.description} onChange={(event) => set('description', event.target.value)} />
      <TextArea label="Instructions" value={values.instructions} onChange={(event) => set('instructions', event.target.value)} hint="The system prompt, sent before the caller’s messages." />
      <TextArea
        label="Models"
        value={values.models}
        onChange={(event) => set('models', event.target.value)}
        hint="Model families callers may pair it with (names or globs, comma or line separated); leave empty to allow every family."
      />
      <TextArea label="Tools (JSON)" className="secret-input" spellCheck={false} value={values.toolsJson} onChange={(event) => set('toolsJson', event.target.value)} hint="An array of tools as in a chat request; empty: none." />
      <TextArea
        label="Response format (JSON)"
        className="secret-input"
        spellCheck={false}
        value={values.responseFormatJson}
        onChange={(event) => set('responseFormatJson', event.target.value)}
        hint='e.g. {"type":"json_object"}; empty: not set.'
      />
    </EditorForm>
  );
}
