import type { AccountRecord, TokenRecord } from '../storage/types';

/**
 * Who is calling, set by the auth middleware: an API token, or a management key — the admin's
 * (`kind: 'admin'`) or an account's (`kind: 'account'`, its own records only).
 */
export type Caller =
  | { kind: 'token'; token: TokenRecord }
  | { kind: 'admin'; account: AccountRecord }
  | { kind: 'account'; account: AccountRecord };

declare module 'express-serve-static-core' {
  interface Locals {
    caller?: Caller;
  }
}
