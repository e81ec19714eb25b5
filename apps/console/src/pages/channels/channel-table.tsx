import type { Channel } from '@chat-relay/contract';
import { formatCount, formatTime } from '../../api/format';
import { DataTable, type Column } from '../../components/data-table';
import { ChannelKeys } from './channel-keys';
import { ChannelRowActions } from './channel-row-actions';
import { describeCircuit, describeLastCheck, describeRefusedParameters } from './channel-text';

const SHOWN_MODELS = 6;

function ChannelState(props: { channel: Channel }) {
  const { channel } = props;
  const circuit = describeCircuit(channel.health);
  const refused = describeRefusedParameters(channel.health);
  return (
    <div className="stack">
      <span className={`badge ${channel.enabled ? 'badge-ok' : 'badge-bad'}`}>{channel.enabled ? 'Enabled' : 'Disabled'}</span>
      <span className={`badge badge-${circuit.tone}`}>{circuit.label}</span>
      <small className="muted">{circuit.detail}</small>
      {refused && <small className="muted">{refused}</small>}
    </div>
  );
}

function ChannelModels(props: { channel: Channel }) {
  const { channel } = props;
  const mapped = Object.keys(channel.model_mapping).length;
  const hidden = channel.models.length - SHOWN_MODELS;
  return (
    <div className="stack">
      <span>
        {channel.models.slice(0, SHOWN_MODELS).join(', ')}
        {hidden > 0 && <span className="muted"> +{hidden} more</span>}
      </span>
      {mapped > 0 && <small className="muted">{mapped} mapped</small>}
      <small className="muted">
        {channel.synced_models_count === null
          ? 'Never synced'
          : `${formatCount(channel.synced_models_count)} synced from the upstream, ${formatTime(channel.models_synced_at)}`}
      </small>
      {channel.models_sync_error && <small className="outcome-bad">Last sync failed: {channel.models_sync_error.message}</small>}
    </div>
  );
}

/** The channels of one page with their health, keys and actions. */
export function ChannelTable(props: { channels: readonly Channel[]; onEdit: (channel: Channel) => void; onChanged: () => void; onDeleted: () => void }) {
  const columns: Column<Channel>[] = [
    {
      id: 'name',
      header: 'Channel',
      sortValue: (channel) => channel.name,
      cell: (channel) => (
        <div className="stack">
          <strong>{channel.name}</strong>
          <small className="muted">
            #{channel.id} · {channel.type} · <code>{channel.base_url}</code>
          </small>
        </div>
      ),
    },
    { id: 'state', header: 'State', sortValue: (channel) => channel.enabled, cell: (channel) => <ChannelState channel={channel} /> },
    { id: 'keys', header: 'Keys', cell: (channel) => <ChannelKeys channel={channel} onChanged={props.onChanged} /> },
    {
      id: 'check',
      header: 'Last check',
      sortValue: (channel) => channel.last_check?.latency_ms,
      cell: (channel) => <span className={channel.last_check ? (channel.last_check.ok ? 'outcome-ok' : 'outcome-bad') : 'muted'}>{describeLastCheck(channel.last_check)}</span>,
    },
    { id: 'models', header: 'Models', cell: (channel) => <ChannelModels channel={channel} /> },
    { id: 'priority', header: 'Priority', numeric: true, sortValue: (channel) => channel.priority, cell: (channel) => channel.priority },
    { id: 'weight', header: 'Weight', numeric: true, sortValue: (channel) => channel.weight, cell: (channel) => channel.weight },
    {
      id: 'actions',
      header: 'Actions',
      cell: (channel) => <ChannelRowActions channel={channel} onEdit={() => props.onEdit(channel)} onChanged={props.onChanged} onDeleted={props.onDeleted} />,
    },
  ];
  return <DataTable caption="Channels" columns={columns} rows={props.channels} rowKey={(channel) => channel.id} />;
}
