import { RelayApiError } from '@chat-relay/client';

/** What went wrong, as the relay said it: its message, code and the request id to quote. */
export function describeError(error: unknown): { message: string; detail: string | null; requestId: string | null } {
  if (error instanceof RelayApiError) {
    const detail = [`HTTP ${error.status}`, error.code, error.param ? `field ${error.param}` : null].filter(Boolean).join(' · ');
    return { message: error.message, detail, requestId: error.requestId ?? null };
  }
  if (error instanceof Error) return { message: error.message, detail: null, requestId: null };
  return { message: String(error), detail: null, requestId: null };
}

export function ErrorNotice(props: { error: unknown; title?: string }) {
  if (props.error === undefined || props.error === null) return null;
  const { message, detail, requestId } = describeError(props.error);
  return (
    <div role="alert" className="notice notice-error">
      <strong>{props.title ?? 'The relay refused this'}</strong>
      <p>{message}</p>
      {detail && <p className="muted">{detail}</p>}
      {requestId && (
        <p className="muted">
          Request id: <code>{requestId}</code>
        </p>
      )}
    </div>
  );
}
