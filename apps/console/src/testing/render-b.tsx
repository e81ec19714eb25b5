import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { SessionProvider, type Session } from '../session/session';

/** Renders a page inside a signed-in session (pages read the client and account from it). */
export function renderSignedIn(page: ReactElement, session: Session): RenderResult {
  return render(<SessionProvider initial={session}>{page}</SessionProvider>);
}
