import { LogQuerySchema, type LogExportQuery, type LogQuery } from '@chat-relay/contract';
import { isoToLocalInput, localInputToIso } from '../../api/local-time';

/** Rows per page of the log (the API allows up to 100). */
export const LOGS_PER_PAGE = 50;

/** The filter form as typed: strings, `from`/`to` in the browser's local time. */
export interface LogFilterForm {
  token_id: string;
  account_id: string;
  model: string;
  status: string;
  endpoint: string;
  from: string;
  to: string;
}
type FilterName = keyof LogFilterForm;
const FILTER_NAMES: readonly FilterName[] = ['token_id', 'account_id', 'model', 'status', 'endpoint', 'from', 'to'];

export const EMPTY_FILTERS: LogFilterForm = { token_id: '', account_id: '', model: '', status: '', endpoint: '', from: '', to: '' };

/** What the form's fields are called on screen, to name them in a problem. */
export const FILTER_LABELS: Readonly<Record<FilterName | 'page', string>> = {
  token_id: 'Token id',
  account_id: 'Account id',
  model: 'Model',
  status: 'Status',
  endpoint: 'Endpoint',
  from: 'From',
  to: 'To',
  page: 'Page',
};

/** The URL's filters as the form shows them (times in the URL are ISO UTC, so a link means the same anywhere). */
export function formFromSearch(params: URLSearchParams): LogFilterForm {
  const form = { ...EMPTY_FILTERS };
  for (const name of FILTER_NAMES) form[name] = params.get(name) ?? '';
  form.from = isoToLocalInput(params.get('from')) || form.from;
  form.to = isoToLocalInput(params.get('to')) || form.to;
  return form;
}

/** The form as URL parameters (first page): empty fields left out, times as ISO UTC; a time that is not one throws. */
export function searchFromForm(form: LogFilterForm): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = name === 'from' || name === 'to' ? localInputToIso(form[name]) : form[name].trim();
    if (value) params.set(name, value);
  }
  return params;
}

export type ParsedLogQuery = { ok: true; query: LogQuery } | { ok: false; problems: string[] };

/**
 * The URL as the API's query, checked with the contract's own schema (a hand-edited link gets a
 * readable problem, not a 400). `account_id` only for the admin: an account sees its own logs.
 */
export function logQueryFromSearch(params: URLSearchParams, isAdmin: boolean): ParsedLogQuery {
  const raw: Record<string, string> = { per_page: String(LOGS_PER_PAGE) };
  for (const name of [...FILTER_NAMES, 'page'] as const) {
    const value = params.get(name);
    if (value && (name !== 'account_id' || isAdmin)) raw[name] = value;
  }
  const parsed = LogQuerySchema.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const field = String(issue.path[0] ?? '');
      return `${field in FILTER_LABELS ? FILTER_LABELS[field as FilterName] : field}: ${issue.message}`;
    }),
  };
}

/** The same filters for the CSV export, which has no pages. */
export function exportQueryOf(query: LogQuery): LogExportQuery {
  const { page: _page, per_page: _perPage, ...filters } = query;
  return filters;
}
