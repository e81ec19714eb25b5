import { microUsdToUsd } from '@chat-relay/contract';

/** How numbers, money and times read in the console (the browser's locale, UTC stated where it matters). */

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export const formatCount = (value: number): string => integer.format(value);
export const formatCompact = (value: number): string => compact.format(value);

/** Micro-USD (the API's integer unit) as dollars: 2 decimals from a cent, 4 below, 6 (every micro-dollar) below $0.0001. */
export function formatMicroUsd(micro: number): string {
  const dollars = micro / 1_000_000;
  const size = Math.abs(dollars);
  const digits = size >= 0.01 || dollars === 0 ? 2 : size >= 0.0001 ? 4 : 6;
  return `$${dollars.toFixed(digits)}`;
}

/** Dollars typed in a form → micro-USD; `null` for an empty field; NaN-safe (throws a readable error). */
export function parseUsdToMicro(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+(\.\d{1,6})?$/.test(trimmed)) throw new Error(`"${text}" is not an amount in dollars (e.g. 5 or 0.25)`);
  return Math.round(Number(trimmed) * 1_000_000);
}

/** Micro-USD as a form shows it for editing (the inverse of parseUsdToMicro): plain dollars, no trailing zeros (`1.25`, `10`). */
export const microToUsdInput = (micro: number | null | undefined): string =>
  micro === null || micro === undefined ? '' : microUsdToUsd(micro).replace(/\.?0+$/, '');

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export const formatPercent = (ratio: number): string => `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.01 ? 2 : 1)}%`;

const byteUnits = ['B', 'KB', 'MB', 'GB'] as const;

/** Bytes as a person reads them: `512 B`, `1.5 KB`, `5.0 MB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${byteUnits[unit]}`;
}
