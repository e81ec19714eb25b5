import type { Channel, ChannelKeyStatus } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { ErrorNotice } from '../../components/error-notice';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useSession } from '../../session/session';
import { describeDisabledKey } from './channel-text';

/** A channel's keys by hint; a key the upstream refused (401/403) says why, with `Re-enable`. */
export function ChannelKeys(props: { channel: Channel; onChanged: () => void }) {
  const { channel } = props;
  return (
    <div>
      {!channel.has_active_key && <p className="key-warning">No active key: the channel is out of rotation.</p>}
      <ul className="key-list">
        {channel.key_status.map((key) => (
          <KeyLine key={key.index} channelId={channel.id} keyStatus={key} onChanged={props.onChanged} />
        ))}
      </ul>
    </div>
  );
}

function KeyLine(props: { channelId: number; keyStatus: ChannelKeyStatus; onChanged: () => void }) {
  const { client } = useSession();
  const action = useBusyAction();
  const { keyStatus } = props;
  const reEnable = async () => {
    const updated = await action.run(async () =>
      unwrap(await client.api.channels.updateChannel({ params: { id: props.channelId }, body: { enable_keys: [keyStatus.index] } }), 200),
    );
    if (updated) props.onChanged();
  };
  if (keyStatus.status === 'active') {
    return (
      <li>
        <code>{keyStatus.hint}</code> <span className="badge badge-ok">active</span>
      </li>
    );
  }
  return (
    <li className="key-disabled">
      <code>{keyStatus.hint}</code> <span className="badge badge-bad">disabled</span> <strong className="key-reason">{describeDisabledKey(keyStatus)}</strong>{' '}
      <button type="button" disabled={action.busy} onClick={() => void reEnable()}>
        Re-enable
      </button>
      <ErrorNotice error={action.error} />
    </li>
  );
}
