import { useState } from 'react';
import type { FormOutcome } from '../api/form-issues';
import { useBusyAction, type BusyAction } from './use-busy-action';

export interface Editor<Values> {
  values: Values;
  setValues: (update: (current: Values) => Values) => void;
  set: <K extends keyof Values>(field: K, value: Values[K]) => void;
  /** What the form found wrong at the last submit, before sending anything. */
  errors: string[];
  save: BusyAction;
  /** Sends the checked body with `request` (busy meanwhile); lists the errors instead when it did not check out. */
  send: <Body, Saved>(outcome: FormOutcome<Body>, request: (body: Body) => Promise<Saved>) => Promise<Saved | undefined>;
}

/** A create/edit form's state: its values, what it found wrong, and the request that saves it. */
export function useEditor<Values>(initial: () => Values): Editor<Values> {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<string[]>([]);
  const save = useBusyAction();
  const set = <K extends keyof Values>(field: K, value: Values[K]) => setValues((current) => ({ ...current, [field]: value }));
  const send = async <Body, Saved>(outcome: FormOutcome<Body>, request: (body: Body) => Promise<Saved>) => {
    setErrors(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) return undefined;
    return save.run(() => request(outcome.body));
  };
  return { values, setValues, set, errors, save, send };
}
