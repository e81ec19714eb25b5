import { TokenCreateSchema, TokenUpdateSchema, type RateLimitInput, type Token, type TokenCreate, type TokenUpdate } from '@chat-relay/contract';
import type { ZodError } from 'zod';
import { microToUsdInput, parseUsdToMicro } from '../../api/format';
import { changedLimits, EMPTY_LIMITS_FORM, LIMITS_FIELD_LABELS, limitsFormOf, parseLimitsForm, type LimitsForm, type Parsed } from '../../api/limits-form';
import { isoToLocalInput, localInputToIso } from '../../api/local-time';

/** A token's policy as the form holds it: what was typed, before it becomes the API's body. */
export interface TokenPolicyForm {
  name: string;
  status: 'active' | 'disabled';
  /** Dollars; empty = no limit. */
  quotaUsd: string;
  /** datetime-local; empty = never. */
  expires: string;
  /** Comma or line separated; empty = every model. */
  models: string;
  allowedIps: string;
  rpm: string;
  tpm: string;
  concurrency: string;
  /** The owner (admin only, on create); empty = the admin's own account. */
  accountId: string;
  /** Periodic limits, time zone and alert thresholds (issue 32). */
  limits: LimitsForm;
}
/** The form's text fields (one input each). */
export type TextFormField = Exclude<keyof TokenPolicyForm, 'limits'>;
/** Where a problem is, by the label on screen. */
type FormField = TextFormField | keyof typeof LIMITS_FIELD_LABELS;

export const EMPTY_TOKEN_FORM: TokenPolicyForm = {
  name: '',
  status: 'active',
  quotaUsd: '',
  expires: '',
  models: '',
  allowedIps: '',
  rpm: '',
  tpm: '',
  concurrency: '',
  accountId: '',
  limits: EMPTY_LIMITS_FORM,
};

/** The labels on screen, to name a field in a problem. */
export const TOKEN_FIELD_LABELS: Readonly<Record<FormField, string>> = {
  name: 'Name',
  status: 'Status',
  quotaUsd: 'Quota (USD)',
  expires: 'Expires',
  models: 'Models',
  allowedIps: 'Allowed IPs',
  rpm: 'Requests per minute',
  tpm: 'Tokens per minute',
  concurrency: 'Concurrent requests',
  accountId: 'Account id',
  ...LIMITS_FIELD_LABELS,
};

/** The API's field → the form's, so a problem the schema finds names what the operator sees. */
const FIELD_OF_WIRE: Readonly<Record<string, FormField>> = {
  name: 'name',
  status: 'status',
  quota_limit: 'quotaUsd',
  expires_at: 'expires',
  models: 'models',
  allowed_ips: 'allowedIps',
  rpm: 'rpm',
  tpm: 'tpm',
  concurrency: 'concurrency',
  account_id: 'accountId',
  periodic_limits: 'periodicLimits',
  time_zone: 'timeZone',
  alert_thresholds: 'alertThresholds',
};

/** A typed value the form cannot send, named by its label. */
export class FormProblem extends Error {
  constructor(
    readonly field: FormField,
    reason: string,
  ) {
    super(`${TOKEN_FIELD_LABELS[field]}: ${reason}`);
    this.name = 'FormProblem';
  }
}

/** "a, b\nc" → ['a', 'b', 'c']: trimmed, empties and repeats left out. */
export const splitList = (text: string): string[] => [...new Set(text.split(/[,\n]/).map((item) => item.trim()).filter(Boolean))];

const listOrNull = (text: string): string[] | null => {
  const items = splitList(text);
  return items.length > 0 ? items : null;
};

function positiveIntOrNull(form: TokenPolicyForm, field: TextFormField): number | null {
  const text = form[field].trim();
  if (text === '') return null;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new FormProblem(field, `"${text}" is not a whole number above 0`);
  return Number(text);
}

function guarded<T>(field: FormField, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof FormProblem) throw error;
    throw new FormProblem(field, error instanceof Error ? error.message : String(error));
  }
}

/** Each field's value as the API takes it. */
const wireValues = (form: TokenPolicyForm) => ({
  name: form.name.trim(),
  status: form.status,
  quota_limit: guarded('quotaUsd', () => parseUsdToMicro(form.quotaUsd)),
  expires_at: guarded('expires', () => localInputToIso(form.expires)),
  models: listOrNull(form.models),
  allowed_ips: listOrNull(form.allowedIps),
  rpm: positiveIntOrNull(form, 'rpm'),
  tpm: positiveIntOrNull(form, 'tpm'),
  concurrency: positiveIntOrNull(form, 'concurrency'),
});

/** The limits' value, or their first problem thrown as the form's. */
function limitsOrThrow<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new FormProblem(parsed.problem.field, parsed.problem.reason);
  return parsed.value;
}

function firstProblem(error: ZodError): FormProblem {
  const issue = error.issues[0];
  const wireField = [...(issue?.path ?? [])].reverse().find((part) => typeof part === 'string' && part in FIELD_OF_WIRE);
  return new FormProblem(FIELD_OF_WIRE[String(wireField)] ?? 'name', issue?.message ?? error.message);
}

/** The create body: only what was filled in, checked with the contract's schema before it is sent. */
export function tokenCreateOf(form: TokenPolicyForm, isAdmin: boolean): TokenCreate {
  const wire = wireValues(form);
  const rateLimit: RateLimitInput = {};
  if (wire.rpm !== null) rateLimit.rpm = wire.rpm;
  if (wire.tpm !== null) rateLimit.tpm = wire.tpm;
  if (wire.concurrency !== null) rateLimit.concurrency = wire.concurrency;
  const body: Record<string, unknown> = { name: wire.name };
  if (wire.quota_limit !== null) body.quota_limit = wire.quota_limit;
  if (wire.expires_at !== null) body.expires_at = wire.expires_at;
  if (wire.models) body.models = wire.models;
  if (wire.allowed_ips) body.allowed_ips = wire.allowed_ips;
  if (Object.keys(rateLimit).length > 0) body.rate_limit = rateLimit;
  if (isAdmin && form.accountId.trim() !== '') body.account_id = positiveIntOrNull(form, 'accountId');
  const limits = limitsOrThrow(parseLimitsForm(form.limits));
  if (limits.periodic_limits.length > 0) body.periodic_limits = limits.periodic_limits;
  if (limits.time_zone !== null) body.time_zone = limits.time_zone;
  if (limits.alert_thresholds !== null) body.alert_thresholds = limits.alert_thresholds;
  const parsed = TokenCreateSchema.safeParse(body);
  if (!parsed.success) throw firstProblem(parsed.error);
  return parsed.data;
}

/** A token as the edit form starts out. */
export function formOfToken(token: Token): TokenPolicyForm {
  return {
    name: token.name,
    // Expired and exhausted are states the relay sets; the operator chooses between these two.
    status: token.status === 'disabled' ? 'disabled' : 'active',
    quotaUsd: microToUsdInput(token.quota_limit),
    expires: isoToLocalInput(token.expires_at),
    models: (token.models ?? []).join('\n'),
    allowedIps: (token.allowed_ips ?? []).join('\n'),
    rpm: token.rate_limit?.rpm?.toString() ?? '',
    tpm: token.rate_limit?.tpm?.toString() ?? '',
    concurrency: token.rate_limit?.concurrency?.toString() ?? '',
    accountId: String(token.account_id),
    limits: limitsFormOf(token),
  };
}

/**
 * The PATCH body: only the fields the operator changed (compared with the form as it started, so
 * an untouched expiry is not rewritten to the minute); null when nothing changed.
 */
export function tokenUpdateOf(initial: TokenPolicyForm, form: TokenPolicyForm): TokenUpdate | null {
  const changed = (field: TextFormField) => form[field].trim() !== initial[field].trim();
  const wire = wireValues(form);
  const body: Record<string, unknown> = {};
  if (changed('name')) body.name = wire.name;
  if (changed('status')) body.status = wire.status;
  if (changed('quotaUsd')) body.quota_limit = wire.quota_limit;
  if (changed('expires')) body.expires_at = wire.expires_at;
  if (changed('models')) body.models = wire.models;
  if (changed('allowedIps')) body.allowed_ips = wire.allowed_ips;
  const rateLimit: RateLimitInput = {};
  if (changed('rpm')) rateLimit.rpm = wire.rpm;
  if (changed('tpm')) rateLimit.tpm = wire.tpm;
  if (changed('concurrency')) rateLimit.concurrency = wire.concurrency;
  if (Object.keys(rateLimit).length > 0) body.rate_limit = rateLimit;
  Object.assign(body, limitsOrThrow(changedLimits(initial.limits, form.limits)));
  if (Object.keys(body).length === 0) return null;
  const parsed = TokenUpdateSchema.safeParse(body);
  if (!parsed.success) throw firstProblem(parsed.error);
  return parsed.data;
}
