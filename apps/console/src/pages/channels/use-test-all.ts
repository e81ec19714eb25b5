import type { RelayClient } from '@chat-relay/client';
import type { Channel, ChannelTestResult } from '@chat-relay/contract';
import { useCallback, useRef, useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { runLimited } from './run-limited';

/** Tests at once: a few, so a relay with many channels is not hit by all of them together. */
export const TEST_ALL_CONCURRENCY = 3;
const LIST_PAGE_SIZE = 100;

export interface ChannelTestLine {
  id: number;
  name: string;
  state: 'waiting' | 'done' | 'failed';
  result?: ChannelTestResult;
  /** Why the test could not run at all (the relay refused it, the network failed). */
  error?: unknown;
}

/** Every channel, page by page (the list route gives at most 100 at a time). */
export async function listAllChannels(client: RelayClient, signal?: AbortSignal): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let page = 1; ; page += 1) {
    const body = unwrap(await client.api.channels.listChannels({ query: { page, per_page: LIST_PAGE_SIZE }, fetchOptions: { signal } }), 200);
    channels.push(...body.data);
    if (body.data.length === 0 || channels.length >= body.total) return channels;
  }
}

/** `Test all channels`: each channel tested in turn (a few at a time), its line filled in as it finishes. */
export function useTestAll(client: RelayClient, onFinished: () => void) {
  const [lines, setLines] = useState<ChannelTestLine[] | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const controller = useRef<AbortController | null>(null);

  const start = useCallback(async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRunning(true);
    setError(undefined);
    try {
      const channels = await listAllChannels(client, current.signal);
      setLines(channels.map((channel) => ({ id: channel.id, name: channel.name, state: 'waiting' })));
      await runLimited(
        channels,
        TEST_ALL_CONCURRENCY,
        async (channel) => unwrap(await client.api.channels.testChannel({ params: { id: channel.id }, body: {} }), 200),
        (index, outcome) =>
          setLines((previous) =>
            (previous ?? []).map((line, at) =>
              at !== index ? line : outcome.status === 'fulfilled' ? { ...line, state: 'done', result: outcome.value } : { ...line, state: 'failed', error: outcome.reason },
            ),
          ),
        current.signal,
      );
      onFinished();
    } catch (failure) {
      if (!current.signal.aborted) setError(failure);
    } finally {
      if (controller.current === current) setRunning(false);
    }
  }, [client, onFinished]);

  const stop = useCallback(() => {
    controller.current?.abort();
    setRunning(false);
  }, []);
  const close = useCallback(() => {
    controller.current?.abort();
    setRunning(false);
    setLines(null);
    setError(undefined);
  }, []);

  return { lines, running, error, start, stop, close };
}
