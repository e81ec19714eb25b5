import { useEffect, type ReactNode } from 'react';

/** A page: its heading (also the document title) and the actions beside it. */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · chat-relay console`;
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{props.title}</h1>
        {props.actions && <div className="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}
