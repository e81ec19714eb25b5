import { useEffect, useRef } from 'react';
import { CopyButton } from '../../components/copy-button';

/**
 * The new token's key, shown this once: the relay keeps only its hash. `Done` drops it from the
 * page's state, so it is never shown again.
 */
export function NewTokenKey(props: { name: string; secret: string; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Focus moves here so a keyboard or screen reader user meets the key at once.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="panel notice-ok" aria-labelledby="new-token-key-title">
      <h2 id="new-token-key-title" tabIndex={-1} ref={headingRef}>
        Token {props.name} created
      </h2>
      <p>Copy the key now: it is shown only this once. The list shows only its last characters.</p>
      <p className="secret" data-testid="new-token-key">
        {props.secret}
      </p>
      <div className="toolbar">
        <CopyButton text={props.secret} label="Copy key" />
        <button type="button" className="primary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
