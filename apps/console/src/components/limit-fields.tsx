import { useId, useMemo, useState } from 'react';
import { knownTimeZones, LIMITS_FIELD_LABELS, METRIC_LABELS, METRICS, nextLimitRow, PERIODS, type LimitRowForm, type LimitsForm } from '../api/limits-form';
import { TextField } from './field';

const PERIOD_OPTIONS = PERIODS.map((period) => ({ value: period, label: `per ${period}` }));
const METRIC_OPTIONS = METRICS.map((metric) => ({ value: metric, label: METRIC_LABELS[metric] }));

/**
 * Periodic limits (rows of period × metric × limit), the time zone their days start in and the
 * alert thresholds — shared by the token and account forms and the tokens' batch edit. Each row's
 * inputs are labelled `Row N: …` so a person (and the browser tests) can tell them apart.
 */
export function LimitFields(props: { form: LimitsForm; onChange: (form: LimitsForm) => void; showTimeZone?: boolean; showThresholds?: boolean }) {
  const { form, onChange } = props;
  const zonesId = useId();
  // Some 400 names: listed once the field is first focused, not with every form.
  const [zonesWanted, setZonesWanted] = useState(false);
  const zones = useMemo(() => (zonesWanted ? knownTimeZones() : []), [zonesWanted]);
  const setRow = (index: number, patch: Partial<LimitRowForm>) =>
    onChange({ ...form, rows: form.rows.map((row, at) => (at === index ? { ...row, ...patch } : row)) });

  return (
    <fieldset className="limit-fields">
      <legend>{LIMITS_FIELD_LABELS.periodicLimits}</legend>
      <p className="muted">
        Calendar windows (a week starts on Monday) in the time zone below; a new window starts empty. Cost in dollars.
      </p>
      {form.rows.length === 0 && <p className="muted">No periodic limits.</p>}
      <ol className="limit-rows">
        {form.rows.map((row, index) => {
          const n = index + 1;
          return (
            <li key={index} className="toolbar">
              <select aria-label={`Row ${n}: metric`} value={row.metric} onChange={(event) => setRow(index, { metric: METRICS.find((metric) => metric === event.target.value) ?? row.metric })}>
                {METRIC_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <select aria-label={`Row ${n}: period`} value={row.period} onChange={(event) => setRow(index, { period: PERIODS.find((period) => period === event.target.value) ?? row.period })}>
                {PERIOD_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <input
                aria-label={`Row ${n}: limit`}
                inputMode={row.metric === 'cost' ? 'decimal' : 'numeric'}
                placeholder={row.metric === 'cost' ? 'USD, e.g. 20' : 'e.g. 100'}
                value={row.limit}
                onChange={(event) => setRow(index, { limit: event.target.value })}
              />
              <button type="button" aria-label={`Row ${n}: remove`} onClick={() => onChange({ ...form, rows: form.rows.filter((_row, at) => at !== index) })}>
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" disabled={form.rows.length >= PERIODS.length * METRICS.length} onClick={() => onChange({ ...form, rows: [...form.rows, nextLimitRow(form.rows)] })}>
        Add limit
      </button>
      <div className="form-grid">
        {props.showTimeZone !== false && (
          <>
            <TextField
              label={LIMITS_FIELD_LABELS.timeZone}
              list={zonesId}
              placeholder="Relay default (UTC unless set)"
              hint="IANA name, e.g. Europe/Paris; empty: the relay's default"
              value={form.timeZone}
              onFocus={() => setZonesWanted(true)}
              onChange={(event) => onChange({ ...form, timeZone: event.target.value })}
            />
            <datalist id={zonesId}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </>
        )}
        {props.showThresholds !== false && (
          <TextField
            label={LIMITS_FIELD_LABELS.alertThresholds}
            placeholder="Relay default"
            hint="e.g. 50, 80, 100 — a webhook event once per crossing per window; empty: the relay's default; none: no alerts"
            value={form.thresholds}
            onChange={(event) => onChange({ ...form, thresholds: event.target.value })}
          />
        )}
      </div>
    </fieldset>
  );
}
