import { DEFAULT_CHANNEL_ENDPOINTS, ENDPOINTS, HOSTED_TOOL_KINDS, type Channel, type ChannelResponsesApi, type ChannelType, type Endpoint, type HostedToolKind } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { EditorForm } from '../../components/editor-form';
import { CheckboxField, SelectField, TextArea, TextField } from '../../components/field';
import { useEditor } from '../../hooks/use-editor';
import { useSession } from '../../session/session';
import {
  CHANNEL_TYPES,
  channelFormFrom,
  emptyChannelForm,
  endpointsOfType,
  toChannelCreate,
  toChannelUpdate,
  withType,
  type ChannelFormValues,
} from './channel-form';
import { withKeyAdded } from './channel-key-text';
import { regionHint, TYPE_FIELDS } from './channel-type-fields';
import { KeyFileInput } from './key-file-input';

const TYPE_OPTIONS = Object.entries(CHANNEL_TYPES).map(([value, { label }]) => ({ value, label }));
const RESPONSES_API_OPTIONS = [
  { value: 'auto', label: 'auto (try native, fall back to bridged)' },
  { value: 'native', label: 'native (the upstream has /responses)' },
  { value: 'bridged', label: 'bridged (through chat completions)' },
];

/**
 * The `New channel` and `Edit` form. Keys are never shown back: in the edit form the field
 * starts empty and is sent only when filled.
 */
export function ChannelEditor(props: { channel?: Channel; onSaved: (channel: Channel) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { channel } = props;
  const editor = useEditor<ChannelFormValues>(() => (channel ? channelFormFrom(channel) : emptyChannelForm()));
  const { values, set } = editor;
  const typeFields = TYPE_FIELDS[values.type];

  const create = () => editor.send(toChannelCreate(values), async (body) => unwrap(await client.api.channels.createChannel({ body }), 201));
  const update = (original: Channel) =>
    editor.send(toChannelUpdate(values, original), async (body) => unwrap(await client.api.channels.updateChannel({ params: { id: original.id }, body }), 200));
  const submit = async () => {
    const saved = channel ? await update(channel) : await create();
    if (saved) props.onSaved(saved);
  };

  const shownEndpoints: readonly Endpoint[] = values.useDefaultEndpoints ? DEFAULT_CHANNEL_ENDPOINTS[values.type] : values.endpoints;
  const toggleTool = (kind: HostedToolKind, on: boolean) =>
    set('hostedTools', on ? HOSTED_TOOL_KINDS.filter((known) => known === kind || values.hostedTools.includes(known)) : values.hostedTools.filter((known) => known !== kind));
  const toggleEndpoint = (endpoint: Endpoint, on: boolean) =>
    set('endpoints', on ? ENDPOINTS.filter((known) => known === endpoint || values.endpoints.includes(known)) : values.endpoints.filter((known) => known !== endpoint));

  return (
    <EditorForm
      title={channel ? `Edit channel “${channel.name}”` : 'New channel'}
      submitLabel={channel ? 'Save channel' : 'Create channel'}
      save={editor.save}
      errors={editor.errors}
      noValidate
      onSubmit={submit}
      onCancel={props.onCancel}
    >
      <div className="form-grid">
        <TextField label="Name" required value={values.name} onChange={(event) => set('name', event.target.value)} />
        <SelectField
          label="Type"
          value={values.type}
          options={TYPE_OPTIONS}
          hint={CHANNEL_TYPES[values.type].hint}
          onChange={(event) => {
            const type = event.target.value as ChannelType;
            editor.setValues((current) => withType(current, type));
          }}
        />
        <TextField
          label="Base URL"
          type="url"
          required
          value={values.baseUrl}
          onChange={(event) => set('baseUrl', event.target.value)}
          placeholder={typeFields.baseUrl.placeholder}
          hint={typeFields.baseUrl.hint}
        />
        {typeFields.region && (
          <TextField
            label="Region"
            value={values.region}
            placeholder={typeFields.region.placeholder}
            onChange={(event) => set('region', event.target.value)}
            hint={regionHint(values.type, values.baseUrl, values.region)}
          />
        )}
        {typeFields.apiVersion && (
          <TextField
            label="API version"
            value={values.apiVersion}
            placeholder={typeFields.apiVersion.placeholder}
            onChange={(event) => set('apiVersion', event.target.value)}
            hint={typeFields.apiVersion.hint}
          />
        )}
        <SelectField
          label="Responses API"
          value={values.responsesApi}
          options={RESPONSES_API_OPTIONS}
          onChange={(event) => set('responsesApi', event.target.value as ChannelResponsesApi)}
        />
        <TextField label="Priority" inputMode="numeric" value={values.priority} onChange={(event) => set('priority', event.target.value)} hint="Higher is tried first." />
        <TextField label="Weight" inputMode="numeric" value={values.weight} onChange={(event) => set('weight', event.target.value)} hint="Share among channels of equal priority." />
      </div>
      <TextArea
        label="Keys"
        className="secret-input"
        autoComplete="off"
        spellCheck={false}
        required={!channel}
        value={values.keys}
        onChange={(event) => set('keys', event.target.value)}
        hint={[
          channel
            ? `One per line. Leave empty to keep the current keys (${channel.key_hints.join(', ') || 'none'}); keys typed here replace them all.`
            : 'One per line. They are never shown again, only a hint of each.',
          typeFields.keys,
        ]
          .filter(Boolean)
          .join(' ')}
      />
      {typeFields.keyFile && <KeyFileInput onRead={(key) => editor.setValues((current) => ({ ...current, keys: withKeyAdded(current.keys, key) }))} />}
      <TextArea
        label="Models"
        required
        value={values.models}
        onChange={(event) => set('models', event.target.value)}
        hint="Comma or line separated; globs like gpt-4o* take the names Sync models finds."
      />
      <TextArea
        label="Model mapping"
        value={values.modelMapping}
        onChange={(event) => set('modelMapping', event.target.value)}
        hint="Optional, one per line: public-name=upstream-name."
      />
      <fieldset className="endpoint-choice">
        <legend>Endpoints</legend>
        {/* Not "type's defaults": a label containing "Type" would make the Type field's label ambiguous. */}
        <CheckboxField
          label="Default endpoints"
          checked={values.useDefaultEndpoints}
          onChange={(event) => editor.setValues((current) => ({ ...current, useDefaultEndpoints: event.target.checked, endpoints: [...DEFAULT_CHANNEL_ENDPOINTS[current.type]] }))}
        />
        {endpointsOfType(values.type).map((endpoint) => (
          <CheckboxField
            key={endpoint}
            label={endpoint}
            checked={shownEndpoints.includes(endpoint)}
            disabled={values.useDefaultEndpoints}
            onChange={(event) => toggleEndpoint(endpoint, event.target.checked)}
          />
        ))}
      </fieldset>
      <fieldset className="endpoint-choice">
        <legend>Passthrough</legend>
        <p className="hint">What a request passed through in its own dialect may carry beyond tokens; a per-call tool or a tier also needs its price.</p>
        {HOSTED_TOOL_KINDS.map((kind) => (
          <CheckboxField key={kind} label={kind} checked={values.hostedTools.includes(kind)} onChange={(event) => toggleTool(kind, event.target.checked)} />
        ))}
        <TextField
          label="Service tiers"
          value={values.serviceTiers}
          onChange={(event) => set('serviceTiers', event.target.value)}
          hint="Comma separated: priority, flex, scale, fast."
        />
        <CheckboxField label="Audio answers" checked={values.audioOutput} onChange={(event) => set('audioOutput', event.target.checked)} />
        <CheckboxField
          label="Upstream object ids (single tenant only)"
          checked={values.upstreamObjects}
          onChange={(event) => set('upstreamObjects', event.target.checked)}
        />
      </fieldset>
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(event) => set('enabled', event.target.checked)} />
    </EditorForm>
  );
}

