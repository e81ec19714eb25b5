import type { RelayClient } from '@chat-relay/client';
import type { Account } from '@chat-relay/contract';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SessionProvider } from '../session/session';
import { adminAccount } from './fixtures';

/** Where the router is now, for tests asserting what a page put in the URL. */
export const locationSeen: { search: string; pathname: string } = { search: '', pathname: '' };

function LocationProbe() {
  const location = useLocation();
  locationSeen.search = location.search;
  locationSeen.pathname = location.pathname;
  return null;
}

/** Renders a page signed in with the fake client as `account` (the admin unless told), at `url`. */
export function renderPage(
  page: ReactNode,
  options: { client: RelayClient; account?: Account; url?: string; path?: string },
): RenderResult {
  const account = options.account ?? adminAccount;
  const session = { client: options.client, account, isAdmin: account.role === 'admin' };
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
