import type { Channel } from '@chat-relay/contract';
import { useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { ChannelEditor } from './channel-editor';
import { ChannelTable } from './channel-table';
import { TestAllResults } from './test-all-results';
import { useTestAll } from './use-test-all';

const PER_PAGE = 20;

/** The admin's upstreams: health, keys and last check per channel; create, edit, test, sync, delete. */
export function ChannelsPage() {
  const { client } = useSession();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [saved, setSaved] = useState<string>();
  const list = useLoad(
    async (signal) => unwrap(await client.api.channels.listChannels({ query: { page, per_page: PER_PAGE }, fetchOptions: { signal } }), 200),
    String(page),
  );
  const testAll = useTestAll(client, list.reload);

  const onSaved = (channel: Channel) => {
    setSaved(`${editing === 'new' ? 'Created' : 'Saved'} channel “${channel.name}”.`);
    setEditing(null);
    list.reload();
  };
  // Deleting the last row of a later page would ask for a page past the end.
  const onDeleted = () => {
    if (page > 1 && list.data?.data.length === 1) setPage(page - 1);
    else list.reload();
  };

  const actions = (
    <>
      <button type="button" className="primary" onClick={() => {
          setSaved(undefined);
          setEditing('new');
        }}>
        New channel
      </button>
      <button type="button" disabled={testAll.running} onClick={() => void testAll.start()}>
        Test all channels
      </button>
    </>
  );

  return (
    <Page title="Channels" actions={actions}>
      {editing && (
        <ChannelEditor
          key={editing === 'new' ? 'new' : editing.id}
          channel={editing === 'new' ? undefined : editing}
          onSaved={onSaved}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="muted">
        {saved}
      </p>
      <TestAllResults lines={testAll.lines} running={testAll.running} error={testAll.error} onStop={testAll.stop} onClose={testAll.close} />
      <ErrorNotice error={list.error} title="Could not list the channels" />
      {list.loading && !list.data && <p role="status">Loading channels…</p>}
      {list.data && list.data.total === 0 && (
        <EmptyState title="No channels yet">
          A channel is an upstream the relay sends requests to: an OpenAI-compatible API (OpenAI, Azure, vLLM, Ollama…), Anthropic or Gemini,
          with its keys and the models it serves. Press <strong>New channel</strong> to add the first.
        </EmptyState>
      )}
      {list.data && list.data.total > 0 && (
        <>
          <ChannelTable channels={list.data.data} onEdit={setEditing} onChanged={list.reload} onDeleted={onDeleted} />
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} label="Channel pages" />
        </>
      )}
    </Page>
  );
}
