import { AccountCreateSchema, AccountUpdateSchema, type Account, type AccountCreate, type AccountUpdate } from '@chat-relay/contract';
import { microToUsdInput, parseUsdToMicro } from '../../api/format';
import { formIssues, type FormOutcome } from '../../api/form-issues';

export interface AccountFormValues {
  name: string;
  role: Account['role'];
  status: Account['status'];
  /** Dollars; empty for no limit. */
  quota: string;
  /** Edit only: start counting the spend again (a new billing period). */
  resetUsed: boolean;
}

const LABELS = { name: 'Name', role: 'Role', status: 'Status', quota_limit: 'Quota (USD)', quota_used: 'Spent' };

export const emptyAccountForm = (): AccountFormValues => ({ name: '', role: 'user', status: 'active', quota: '', resetUsed: false });

export const accountFormFrom = (account: Account): AccountFormValues => ({
  name: account.name,
  role: account.role,
  status: account.status,
  quota: microToUsdInput(account.quota_limit),
  resetUsed: false,
});

function readQuota(text: string): { value: number | null } | { error: string } {
  try {
    return { value: parseUsdToMicro(text) };
  } catch (error) {
    return { error: `Quota (USD): ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** `POST /api/accounts` body, checked against the contract. */
export function toAccountCreate(values: AccountFormValues): FormOutcome<AccountCreate> {
  const quota = readQuota(values.quota);
  if ('error' in quota) return { ok: false, errors: [quota.error] };
  const parsed = AccountCreateSchema.safeParse({ name: values.name, role: values.role, status: values.status, quota_limit: quota.value });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS) };
}

/** `PATCH /api/accounts/{id}` body: what changed, and `quota_used: 0` when asked to reset it. */
export function toAccountUpdate(values: AccountFormValues, original: Account): FormOutcome<AccountUpdate> {
  const quota = readQuota(values.quota);
  if ('error' in quota) return { ok: false, errors: [quota.error] };
  const body: Record<string, unknown> = {};
  if (values.name.trim() !== original.name) body['name'] = values.name;
  if (values.role !== original.role) body['role'] = values.role;
  if (values.status !== original.status) body['status'] = values.status;
  if (quota.value !== original.quota_limit) body['quota_limit'] = quota.value;
  if (values.resetUsed) body['quota_used'] = 0;
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = AccountUpdateSchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS) };
}
