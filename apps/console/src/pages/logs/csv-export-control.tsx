import type { RelayClient } from '@chat-relay/client';
import type { LogExportQuery } from '@chat-relay/contract';
import { useEffect, useRef, useState } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { formatBytes } from '../../api/format';
import { collectCsv, isAbort, saveBlob } from './csv-export';

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; bytes: number }
  | { phase: 'saved'; filename: string; bytes: number }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/** `Export CSV` of every row the filters match: progress in bytes, Cancel, the relay's error if any. */
export function CsvExportControl(props: { client: RelayClient; query: LogExportQuery | null }) {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controllerRef = useRef<AbortController | null>(null);
  // Leaving the page stops a running export rather than saving a file nobody waits for.
  useEffect(() => () => controllerRef.current?.abort(), []);

  const start = async () => {
    if (!props.query) return;
    const controller = new AbortController();
    controllerRef.current = controller;
    setState({ phase: 'running', bytes: 0 });
    try {
      const download = await props.client.exportLogsCsv(props.query, { signal: controller.signal });
      const blob = await collectCsv(download.body, (bytes) => setState({ phase: 'running', bytes }), controller.signal);
      saveBlob(blob, download.filename);
      setState({ phase: 'saved', filename: download.filename, bytes: blob.size });
    } catch (error) {
      setState(isAbort(error) || controller.signal.aborted ? { phase: 'cancelled' } : { phase: 'failed', error });
    } finally {
      if (controllerRef.current === controller) controllerRef.current = null;
    }
  };

  const running = state.phase === 'running';
  return (
    <div className="csv-export">
      <div className="toolbar">
        <button type="button" onClick={() => void start()} disabled={running || !props.query}>
          Export CSV
        </button>
        {running && (
          <button type="button" onClick={() => controllerRef.current?.abort()}>
            Cancel
          </button>
        )}
        <span role="status" className="muted">
          {state.phase === 'running' && `Exporting… ${formatBytes(state.bytes)}`}
          {state.phase === 'saved' && `Saved ${state.filename} (${formatBytes(state.bytes)})`}
          {state.phase === 'cancelled' && 'Export cancelled'}
        </span>
      </div>
      {state.phase === 'failed' && <ErrorNotice error={state.error} title="Could not export the logs" />}
    </div>
  );
}
