import { describeError } from '../../components/error-notice';
import { ErrorNotice } from '../../components/error-notice';
import type { ChannelTestLine } from './use-test-all';
import { describeTestResult } from './channel-text';

function lineText(line: ChannelTestLine): string {
  if (line.state === 'waiting') return 'waiting…';
  if (line.result) return describeTestResult(line.result);
  const { message, detail } = describeError(line.error);
  return detail ? `${message} · ${detail}` : message;
}

/** The results of `Test all channels`, filled in as each test ends. */
export function TestAllResults(props: { lines: readonly ChannelTestLine[] | null; running: boolean; error: unknown; onStop: () => void; onClose: () => void }) {
  const { lines } = props;
  if (!lines && !props.running && !props.error) return null;
  const finished = lines?.filter((line) => line.state !== 'waiting').length ?? 0;
  const failed = lines?.filter((line) => line.state === 'failed' || (line.result && !line.result.ok)).length ?? 0;
  return (
    <section className="panel" aria-labelledby="test-all-title">
      <h2 id="test-all-title">Test results</h2>
      <ErrorNotice error={props.error} title="Could not test the channels" />
      <div role="status">
        <p>
          {lines ? `${finished} of ${lines.length} tested` : 'Listing channels…'}
          {finished > 0 && ` · ${failed} failed`}
        </p>
        {lines && (
          <ul className="test-results">
            {lines.map((line) => (
              <li key={line.id} className={line.state === 'waiting' ? 'muted' : line.result?.ok ? 'outcome-ok' : 'outcome-bad'}>
                <strong>{line.name}</strong>: {lineText(line)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="toolbar">
        {props.running ? (
          <button type="button" onClick={props.onStop}>
            Stop testing
          </button>
        ) : (
          <button type="button" onClick={props.onClose}>
            Close results
          </button>
        )}
      </div>
    </section>
  );
}
