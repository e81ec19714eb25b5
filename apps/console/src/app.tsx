import { useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, NavLink, Route, Routes } from 'react-router-dom';
import { AccountsPage } from './pages/accounts/accounts-page';
import { AssistantsPage } from './pages/assistants/assistants-page';
import { FallbacksPage } from './pages/fallbacks/fallbacks-page';
import { ChannelsPage } from './pages/channels/channels-page';
import { LogsPage } from './pages/logs/logs-page';
import { OverviewPage } from './pages/overview/overview-page';
import { PlaygroundPage } from './pages/playground/playground-page';
import { PricesPage } from './pages/prices/prices-page';
import { ModelsPage } from './pages/models/models-page';
import { SignInPage } from './pages/sign-in-page';
import { TokensPage } from './pages/tokens/tokens-page';
import { WebhooksPage } from './pages/webhooks/webhooks-page';
import { openSession, rememberedKey, SessionProvider, useSessionState, type Session } from './session/session';

interface Section {
  path: string;
  label: string;
  adminOnly: boolean;
  element: ReactNode;
}

// Channels, prices, models, fallbacks, accounts and webhooks are the admin's; an account manages its own tokens and assistants.
export const SECTIONS: readonly Section[] = [
  { path: '/', label: 'Overview', adminOnly: false, element: <OverviewPage /> },
  { path: '/channels', label: 'Channels', adminOnly: true, element: <ChannelsPage /> },
  { path: '/tokens', label: 'Tokens', adminOnly: false, element: <TokensPage /> },
  { path: '/assistants', label: 'Assistants', adminOnly: false, element: <AssistantsPage /> },
  { path: '/playground', label: 'Playground', adminOnly: false, element: <PlaygroundPage /> },
  { path: '/logs', label: 'Logs', adminOnly: false, element: <LogsPage /> },
  { path: '/prices', label: 'Prices', adminOnly: true, element: <PricesPage /> },
  { path: '/models', label: 'Models', adminOnly: true, element: <ModelsPage /> },
  { path: '/fallbacks', label: 'Fallbacks', adminOnly: true, element: <FallbacksPage /> },
  { path: '/accounts', label: 'Accounts', adminOnly: true, element: <AccountsPage /> },
  { path: '/webhooks', label: 'Webhooks', adminOnly: true, element: <WebhooksPage /> },
];

function Shell() {
  const { session, signOut } = useSessionState();
  if (!session) return <SignInPage />;
  const sections = SECTIONS.filter((section) => session.isAdmin || !section.adminOnly);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">chat-relay</span>
        <nav aria-label="Console">
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <NavLink to={section.path} end={section.path === '/'}>
                  {section.label}
                </NavLink>
              </li>
            ))}
            <li>
              <a href="/docs">Docs</a>
            </li>
          </ul>
        </nav>
        <span className="who">
          {session.account.name} ({session.isAdmin ? 'admin' : 'account'})
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Routes>
          {sections.map((section) => (
            <Route key={section.path} path={section.path} element={section.element} />
          ))}
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </main>
    </>
  );
}

/** Reopens the tab's session after a reload (the key is checked again, not trusted). */
function useRestoredSession(): { ready: boolean; initial: Session | null } {
  const [state, setState] = useState<{ ready: boolean; initial: Session | null }>({ ready: rememberedKey() === null, initial: null });
  useEffect(() => {
    const key = rememberedKey();
    if (key === null) return;
    openSession(key).then(
      (session) => setState({ ready: true, initial: session }),
      () => setState({ ready: true, initial: null }),
    );
  }, []);
  return state;
}

export function App() {
  const { ready, initial } = useRestoredSession();
  if (!ready) return <p role="status">Loading…</p>;
  return (
    <SessionProvider initial={initial}>
      <BrowserRouter basename="/console">
        <Shell />
      </BrowserRouter>
    </SessionProvider>
  );
}
