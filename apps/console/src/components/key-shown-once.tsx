import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyButton } from './copy-button';

/**
 * A new secret (a token's key, an account's access key), shown this once: the relay keeps only
 * its hash, and `Done` drops it from the page's state so it is never shown again.
 */
export function KeyShownOnce(props: {
  title: ReactNode;
  /** Why to copy it now and what it is for. */
  explanation: string;
  secret: string;
  /** The `data-testid` the browser tests read the key from. */
  testId: string;
  /** Move focus to the heading, so a keyboard or screen reader user meets the key at once. */
  takeFocus?: boolean;
  /** The copy button's text (`Copy key` unless given). */
  copyLabel?: string;
  onDone: () => void;
}) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { takeFocus } = props;
  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);
  return (
    <section className="panel notice-ok" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={takeFocus ? -1 : undefined} ref={headingRef}>
        {props.title}
      </h2>
      <p>{props.explanation}</p>
      <p className="secret" data-testid={props.testId}>
        {props.secret}
      </p>
      <div className="toolbar">
        <CopyButton text={props.secret} label={props.copyLabel ?? 'Copy key'} />
        <button type="button" className="primary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
