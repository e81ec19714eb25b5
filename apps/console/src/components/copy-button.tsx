import { useState } from 'react';

/** Copies `text` to the clipboard and says so (for a screen reader too). */
export function CopyButton(props: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(props.text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {props.label ?? 'Copy'}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </>
  );
}
