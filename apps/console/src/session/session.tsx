import type { RelayClient } from '@chat-relay/client';
import type { Account } from '@chat-relay/contract';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { consoleClient } from '../api/relay-client';
import { unwrap } from '@chat-relay/client';

/** Who is signed in: the admin (everything) or an account (its own tokens, assistants, logs). */
export interface Session {
  client: RelayClient;
  account: Account;
  isAdmin: boolean;
}

interface SessionState {
  session: Session | null;
  signIn(key: string): Promise<void>;
  signOut(): void;
}

// The tab's session storage: a reload keeps the operator signed in, closing the tab forgets the key.
const STORAGE_KEY = 'chat-relay.console.key';

const SessionContext = createContext<SessionState | null>(null);

/** Checks a key with `GET /api/account`: it must be a management key (admin or account), not an API token. */
export async function openSession(key: string, clientOf: (key: string) => RelayClient = consoleClient): Promise<Session> {
  const client = clientOf(key);
  const info = unwrap(await client.api.accounts.getAccountInfo(), 200);
  if (info.token !== null) {
    throw new Error('This is an API token (sk-…). Sign in with the admin key or an account’s access key.');
  }
  return { client, account: info.account, isAdmin: info.account.role === 'admin' };
}

export function SessionProvider(props: { initial?: Session | null; children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(props.initial ?? null);

  const signIn = useCallback(async (key: string) => {
    const opened = await openSession(key.trim());
    sessionStorage.setItem(STORAGE_KEY, key.trim());
    setSession(opened);
  }, []);
  const signOut = useCallback(() => {
    sessionStorage.removeItem(STORAGE_KEY);
    setSession(null);
  }, []);

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

/** The key this tab signed in with before a reload, if any. */
export const rememberedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);

export function useSessionState(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSessionState outside SessionProvider');
  return state;
}

/** The signed-in session; the pages that call it are only shown when there is one. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession without a signed-in session');
  return session;
}
