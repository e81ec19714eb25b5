import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/error-notice';
import { TextField } from '../components/field';
import { useSessionState } from '../session/session';

/** The admin key (RELAY_ADMIN_KEY) or an account's access key; never an API token. */
export function SignInPage() {
  const { signIn } = useSessionState();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(key);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>chat-relay console</h1>
      <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <TextField
          label="Management key"
          type="password"
          autoComplete="current-password"
          required
          value={key}
          onChange={(event) => setKey(event.target.value)}
          hint="The admin key (RELAY_ADMIN_KEY) or an account’s access key. It stays in this tab only."
        />
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorNotice error={error} title="Could not sign in" />
      <p className="muted">
        <a href="/docs">API reference and guides</a>
      </p>
    </main>
  );
}
