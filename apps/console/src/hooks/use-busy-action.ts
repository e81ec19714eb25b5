import { useCallback, useState } from 'react';

export interface BusyAction {
  busy: boolean;
  /** What the last run threw (a RelayApiError for a refusal); cleared when the next run starts. */
  error: unknown;
  /** Runs `action` once at a time; resolves with its value, or undefined when it threw. */
  run<T>(action: () => Promise<T>): Promise<T | undefined>;
  clearError(): void;
}

/** A button's request: busy while it runs, its failure kept to show beside it. */
export function useBusyAction(): BusyAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const clearError = useCallback(() => setError(undefined), []);
  return { busy, error, run, clearError };
}
