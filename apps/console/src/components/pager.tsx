import { formatCount } from '../api/format';

/** Previous/next over the API's pages, with where we are and how many there are. */
export function Pager(props: { page: number; perPage: number; total: number; onPage: (page: number) => void; label?: string }) {
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  const first = props.total === 0 ? 0 : (props.page - 1) * props.perPage + 1;
  const last = Math.min(props.total, props.page * props.perPage);
  return (
    <nav className="pager" aria-label={props.label ?? 'Pages'}>
      <button type="button" onClick={() => props.onPage(props.page - 1)} disabled={props.page <= 1}>
        Previous page
      </button>
      <span aria-live="polite">
        {formatCount(first)}–{formatCount(last)} of {formatCount(props.total)} · page {props.page} of {pages}
      </span>
      <button type="button" onClick={() => props.onPage(props.page + 1)} disabled={props.page >= pages}>
        Next page
      </button>
    </nav>
  );
}
