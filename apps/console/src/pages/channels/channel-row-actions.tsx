import type { Channel, ChannelModelSync, ChannelTestResult } from '@chat-relay/contract';
import { useState } from 'react';
import { formatCount } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { ConfirmAction } from '../../components/confirm-action';
import { ErrorNotice } from '../../components/error-notice';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useSession } from '../../session/session';
import { describeTestResult, testableModels } from './channel-text';

/** A row's buttons: Test (with a model), Edit, Disable/Enable, Sync models, Delete; their outcomes below. */
export function ChannelRowActions(props: { channel: Channel; onEdit: () => void; onChanged: () => void; onDeleted: () => void }) {
  const { client } = useSession();
  const { channel } = props;
  const models = testableModels(channel);
  const [model, setModel] = useState('');
  const [tested, setTested] = useState<ChannelTestResult>();
  const [synced, setSynced] = useState<ChannelModelSync>();
  const test = useBusyAction();
  const sync = useBusyAction();
  const toggle = useBusyAction();

  const runTest = async () => {
    setTested(undefined);
    const result = await test.run(async () =>
      unwrap(await client.api.channels.testChannel({ params: { id: channel.id }, body: model === '' ? {} : { model } }), 200),
    );
    if (result) {
      setTested(result);
      props.onChanged();
    }
  };
  const runSync = async () => {
    setSynced(undefined);
    const result = await sync.run(async () => unwrap(await client.api.channels.syncChannelModels({ params: { id: channel.id } }), 200));
    if (result) {
      setSynced(result);
      props.onChanged();
    }
  };
  const setEnabled = async (enabled: boolean) => {
    const result = await toggle.run(async () => unwrap(await client.api.channels.updateChannel({ params: { id: channel.id }, body: { enabled } }), 200));
    if (result) props.onChanged();
  };
  const remove = async () => {
    unwrap(await client.api.channels.deleteChannel({ params: { id: channel.id } }), 204);
    props.onDeleted();
  };

  return (
    <div className="row-actions">
      <div className="toolbar">
        {models.length > 0 && (
          <select aria-label="Model to test" value={model} onChange={(event) => setModel(event.target.value)}>
            <option value="">Default model</option>
            {models.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
        <button type="button" disabled={test.busy} onClick={() => void runTest()}>
          Test
        </button>
        <button type="button" onClick={props.onEdit}>
          Edit
        </button>
        <button type="button" disabled={toggle.busy} onClick={() => void setEnabled(!channel.enabled)}>
          {channel.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" disabled={sync.busy} onClick={() => void runSync()}>
          Sync models
        </button>
        <ConfirmAction question={`Delete channel “${channel.name}”?`} onConfirm={remove} />
      </div>
      <p role="status" className={tested ? (tested.ok ? 'outcome-ok' : 'outcome-bad') : 'muted'}>
        {test.busy ? 'Testing…' : tested ? describeTestResult(tested) : ''}
      </p>
      <ErrorNotice error={test.error} title="The test could not run" />
      <p role="status" className="muted">
        {sync.busy ? 'Syncing models…' : synced ? `Synced ${formatCount(synced.models.length)} models from the upstream · ${formatCount(synced.listed.length)} listed` : ''}
      </p>
      <ErrorNotice error={sync.error} title="Model sync failed" />
      <ErrorNotice error={toggle.error} />
    </div>
  );
}
