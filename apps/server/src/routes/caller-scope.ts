import { notFound, permissionError } from '@chat-relay/wire';
import type { Caller } from '../auth/caller';
import type { TokenRecord, TokenStore } from '../storage/types';

/**
 * The account a management caller is confined to: an account's access key reaches only its
 * own records; `undefined` means the admin key, which reaches everything (SPEC §4).
 */
export function managedAccountId(caller: Caller | undefined): number | undefined {
  switch (caller?.kind) {
    case 'admin':
      return undefined;
    case 'account':
      return caller.account.id;
    default:
      throw new Error('management route reached without a management caller');
  }
}

/** The account that owns what a management caller creates: its own. */
export function callerAccountId(caller: Caller | undefined): number {
  switch (caller?.kind) {
    case 'admin':
    case 'account':
      return caller.account.id;
    case 'token':
      return caller.token.accountId;
    default:
      throw new Error('route reached without a caller');
  }
}

/** Does a caller confined to `scope` reach a record of `accountId`? */
export const reaches = (scope: number | undefined, accountId: number): boolean =>
  scope === undefined || scope === accountId;

/**
 * An `account_id` the caller names in a filter or a body. The admin may name any account; an
 * account key only its own — naming another is refused (403) rather than answered empty, so a
 * client mistake is not mistaken for "no records".
 */
export function assertMayNameAccount(scope: number | undefined, accountId: number | undefined): void {
  if (accountId === undefined || reaches(scope, accountId)) return;
  throw permissionError('account_forbidden', "An account's access key reaches only its own account's records.");
}

/**
 * The token when a caller confined to `scope` reaches it; 404 otherwise (`param` names where the
 * id came from), never revealing that another account's token exists.
 */
export async function reachableToken(tokens: TokenStore, scope: number | undefined, id: number, param = 'id'): Promise<TokenRecord> {
  const token = await tokens.get(id);
  if (!token || !reaches(scope, token.accountId)) throw notFound('token_not_found', `No token with id ${id}.`, param);
  return token;
}
