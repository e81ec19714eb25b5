import { AccountCreateSchema, AccountUpdateSchema, type Account, type AccountCreate, type AccountUpdate } from '@chat-relay/contract';
import { microToUsdInput, parseUsdToMicro } from '../../api/format';
import { formIssues, type FormOutcome } from '../../api/form-issues';
import { changedLimits, EMPTY_LIMITS_FORM, LIMITS_FIELD_LABELS, limitsFormOf, parseLimitsForm, type LimitsForm, type LimitsProblem } from '../../api/limits-form';

export interface AccountFormValues {
  name: string;
  role: Account['role'];
  status: Account['status'];
  /** Dollars; empty for no limit. */
  quota: string;
  /** Edit only: start counting the spend again (a new billing period). */
  resetUsed: boolean;
  /** Periodic limits, time zone and alert thresholds (issue 32). */
  limits: LimitsForm;
}

const LABELS = {
  name: 'Name',
  role: 'Role',
  status: 'Status',
  quota_limit: 'Quota (USD)',
  quota_used: 'Spent',
  periodic_limits: LIMITS_FIELD_LABELS.periodicLimits,
  time_zone: LIMITS_FIELD_LABELS.timeZone,
  alert_thresholds: LIMITS_FIELD_LABELS.alertThresholds,
};

const limitsError = (problem: LimitsProblem): string => `${LIMITS_FIELD_LABELS[problem.field]}: ${problem.reason}`;

export const emptyAccountForm = (): AccountFormValues => ({ name: '', role: 'user', status: 'active', quota: '', resetUsed: false, limits: EMPTY_LIMITS_FORM });

export const accountFormFrom = (account: Account): AccountFormValues => ({
  name: account.name,
  role: account.role,
  status: account.status,
  quota: microToUsdInput(account.quota_limit),
  resetUsed: false,
  limits: limitsFormOf(account),
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
  const limits = parseLimitsForm(values.limits);
  if (!limits.ok) return { ok: false, errors: [limitsError(limits.problem)] };
  const body: Record<string, unknown> = { name: values.name, role: values.role, status: values.status, quota_limit: quota.value };
  if (limits.value.periodic_limits.length > 0) body['periodic_limits'] = limits.value.periodic_limits;
  if (limits.value.time_zone !== null) body['time_zone'] = limits.value.time_zone;
  if (limits.value.alert_thresholds !== null) body['alert_thresholds'] = limits.value.alert_thresholds;
  const parsed = AccountCreateSchema.safeParse(body);
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
  const limits = changedLimits(limitsFormOf(original), values.limits);
  if (!limits.ok) return { ok: false, errors: [limitsError(limits.problem)] };
  Object.assign(body, limits.value);
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = AccountUpdateSchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS) };
}
