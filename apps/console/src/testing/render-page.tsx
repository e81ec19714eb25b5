import type { RelayClient } from '@chat-relay/client';
import type { Account } from '@chat-relay/contract';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SessionProvider } from '../session/session';

export const adminAccount: Account = {
  id: 1,
  name: 'Admin',
  role: 'admin',
  status: 'active',
  quota_limit: null,
  quota_used: 0,
  quota_limit_usd: null,
  quota_used_usd: '0.000000',
  key_hint: 'ak-…0001',
  created_at: '2026-11-01T00:00:00.000Z',
};
export const userAccount: Account = { ...adminAccount, id: 7, name: 'Team A', role: 'user', key_hint: 'ak-…0007' };

/** Where the router is now, for tests asserting what a page put in the URL. */
export const locationSeen: { search: string; pathname: string } = { search: '', pathname: '' };

function LocationProbe() {
  const location = useLocation();
  locationSeen.search = location.search;
  locationSeen.pathname = location.pathname;
  return null;
}

/** Renders a page signed in (admin unless told) with the fake client, at `url`. */
export function renderPage(
  page: ReactNode,
  options: { client: RelayClient; isAdmin?: boolean; url?: string; path?: string },
): RenderResult {
  const isAdmin = options.isAdmin ?? true;
  const session = { client: options.client, account: isAdmin ? adminAccount : userAccount, isAdmin };
  return render(
    <SessionProvider initial={session}>
      <MemoryRouter initialEntries={[options.url ?? '/']}>
        <LocationProbe />
        <Routes>
          <Route path={options.path ?? '*'} element={page} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
}
