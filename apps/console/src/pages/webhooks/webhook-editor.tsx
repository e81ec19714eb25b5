import type { Webhook } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { CheckboxField, TextField } from '../../components/field';
import { useEditor } from '../../hooks/use-editor';
import { useSession } from '../../session/session';
import { emptyWebhookForm, EVENT_LABELS, SUBSCRIBABLE_EVENTS, toWebhookCreate, toWebhookUpdate, webhookFormFrom, type WebhookFormValues } from './webhook-form';

/** `New webhook` / `Edit`: URL, events, enabled (and on create an optional secret of one's own). */
export function WebhookEditor(props: { webhook?: Webhook; onCreated: (created: Webhook & { secret: string }) => void; onSaved: (webhook: Webhook) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { webhook } = props;
  const editor = useEditor<WebhookFormValues>(() => (webhook ? webhookFormFrom(webhook) : emptyWebhookForm()));
  const { values, set } = editor;

  const create = async () => {
    const created = await editor.send(toWebhookCreate(values), async (body) => unwrap(await client.api.webhooks.createWebhook({ body }), 201));
    if (created) props.onCreated(created);
  };
  const update = async (original: Webhook) => {
    const saved = await editor.send(toWebhookUpdate(values, original), async (body) => unwrap(await client.api.webhooks.updateWebhook({ params: { id: original.id }, body }), 200));
    if (saved) props.onSaved(saved);
  };
  const toggleEvent = (type: (typeof SUBSCRIBABLE_EVENTS)[number], on: boolean) =>
    set('events', on ? [...values.events.filter((event) => event !== type), type] : values.events.filter((event) => event !== type));

  return (
    <EditorForm
      title={webhook ? `Edit webhook ${webhook.url}` : 'New webhook'}
      submitLabel={webhook ? 'Save webhook' : 'Create webhook'}
      save={editor.save}
      errors={editor.errors}
      errorTitle={webhook ? 'Could not save the webhook' : 'Could not create the webhook'}
      noValidate
      onSubmit={() => (webhook ? update(webhook) : create())}
      onCancel={props.onCancel}
    >
      <div className="form-grid">
        <TextField label="URL" type="url" required placeholder="https://hooks.example.com/relay" value={values.url} onChange={(event) => set('url', event.target.value)} />
        {!webhook && (
          <TextField
            label="Secret"
            autoComplete="off"
            placeholder="Generated"
            hint="Empty: the relay makes one (whsec_…); shown once after creating, for checking signatures"
            value={values.secret}
            onChange={(event) => set('secret', event.target.value)}
          />
        )}
      </div>
      <fieldset className="event-checks">
        <legend>Events</legend>
        <CheckboxField label="All events" checked={values.allEvents} onChange={(event) => set('allEvents', event.target.checked)} />
        {SUBSCRIBABLE_EVENTS.map((type) => (
          <CheckboxField
            key={type}
            label={EVENT_LABELS[type]}
            disabled={values.allEvents}
            checked={values.allEvents || values.events.includes(type)}
            onChange={(event) => toggleEvent(type, event.target.checked)}
          />
        ))}
      </fieldset>
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(event) => set('enabled', event.target.checked)} />
    </EditorForm>
  );
}
