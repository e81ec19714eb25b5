import { PriceTableSchema, type Price, type PriceTable } from '@chat-relay/contract';
import { microToUsdInput, parseUsdToMicro } from '../../api/format';

/** Fields of an entry the table does not edit: kept as they were and sent back with the row. */
const KEPT_FIELDS = ['video_second_variants', 'tool_calls', 'service_tiers', 'free'] as const;
type KeptField = (typeof KEPT_FIELDS)[number];

/** A price field the table edits as dollars (the API keeps micro-USD). */
type AmountField = Exclude<keyof Price, 'model' | 'image_variants' | KeptField>;

export interface PriceColumn {
  field: AmountField;
  label: string;
  unit: string;
  required: boolean;
}

/** The table's amount columns, in the schema's order; empty optional ones are left out of the PUT. */
export const PRICE_COLUMNS: readonly PriceColumn[] = [
  // Both or neither: an entry priced only by its units (a video model) has no token prices.
  { field: 'input', label: 'Input', unit: 'USD / 1M tokens', required: false },
  { field: 'output', label: 'Output', unit: 'USD / 1M tokens', required: false },
  { field: 'cache_read', label: 'Cache read', unit: 'USD / 1M tokens', required: false },
  { field: 'cache_write', label: 'Cache write', unit: 'USD / 1M tokens', required: false },
  { field: 'image', label: 'Image', unit: 'USD / image', required: false },
  { field: 'search_unit', label: 'Search unit', unit: 'USD / rerank unit', required: false },
  { field: 'characters', label: 'Speech', unit: 'USD / 1M characters', required: false },
  { field: 'audio_minute', label: 'Audio minute', unit: 'USD / minute', required: false },
  { field: 'video_second', label: 'Video second', unit: 'USD / second', required: false },
  { field: 'song', label: 'Song', unit: 'USD / song', required: false },
  { field: 'search_query', label: 'Web search', unit: 'USD / query', required: false },
  { field: 'audio_output', label: 'Audio output', unit: 'USD / 1M tokens', required: false },
];

/** One row as typed: dollars as text; `imageVariants` as `variant=dollars` pairs separated by commas. */
export interface PriceRow {
  /** Stable across edits and reordering (React's key), never sent. */
  key: number;
  model: string;
  amounts: Record<AmountField, string>;
  imageVariants: string;
  /** What the table does not edit (per-size video prices, per-call hosted tool prices, tier multipliers): sent back unchanged. */
  kept: Partial<Pick<Price, KeptField>>;
}

let nextKey = 1;
const emptyAmounts = (): Record<AmountField, string> =>
  Object.fromEntries(PRICE_COLUMNS.map((column) => [column.field, ''])) as Record<AmountField, string>;

export const emptyPriceRow = (): PriceRow => ({ key: nextKey++, model: '', amounts: emptyAmounts(), imageVariants: '', kept: {} });

export function rowsFromTable(table: PriceTable): PriceRow[] {
  return table.data.map((price) => {
    const amounts = emptyAmounts();
    for (const column of PRICE_COLUMNS) amounts[column.field] = microToUsdInput(price[column.field]);
    const variants = Object.entries(price.image_variants ?? {}).map(([variant, micro]) => `${variant}=${microToUsdInput(micro)}`);
    const kept = Object.fromEntries(KEPT_FIELDS.flatMap((field) => (price[field] != null ? [[field, price[field]]] : [])));
    return { key: nextKey++, model: price.model, amounts, imageVariants: variants.join(', '), kept };
  });
}

const rowName = (row: PriceRow, index: number): string => `Row ${index + 1}${row.model.trim() ? ` (${row.model.trim()})` : ''}`;

/** One row → the API's price, or what could not be read in it. */
function readRow(row: PriceRow, index: number): { price: Record<string, unknown>; errors: string[] } {
  const errors: string[] = [];
  const price: Record<string, unknown> = { model: row.model.trim(), ...row.kept };
  if ((row.amounts.input.trim() === '') !== (row.amounts.output.trim() === '')) {
    errors.push(`${rowName(row, index)} · Input and output: set both, or neither for a model priced only by its units`);
  }
  for (const column of PRICE_COLUMNS) {
    const text = row.amounts[column.field];
    if (text.trim() === '') {
      if (column.required) errors.push(`${rowName(row, index)} · ${column.label}: required`);
      continue;
    }
    try {
      price[column.field] = parseUsdToMicro(text);
    } catch (error) {
      errors.push(`${rowName(row, index)} · ${column.label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (row.imageVariants.trim() !== '') {
    const variants: Record<string, number> = {};
    for (const pair of row.imageVariants.split(',').map((part) => part.trim()).filter(Boolean)) {
      const [variant, dollars, extra] = pair.split('=').map((part) => part.trim());
      const micro = dollars === undefined || extra !== undefined ? undefined : safeMicro(dollars);
      if (!variant || micro === undefined) errors.push(`${rowName(row, index)} · Image variants: write variant=dollars, e.g. hd/1024x1792=0.08 (not "${pair}")`);
      else variants[variant] = micro;
    }
    price['image_variants'] = variants;
  }
  return { price, errors };
}

function safeMicro(dollars: string): number | undefined {
  try {
    return parseUsdToMicro(dollars) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The whole table for `PUT /api/prices`, checked against the contract, or every problem by row. */
export function toPriceTable(rows: readonly PriceRow[]): { ok: true; table: PriceTable } | { ok: false; errors: string[] } {
  const read = rows.map(readRow);
  const errors = read.flatMap((entry) => entry.errors);
  const firstRowOf = new Map<string, number>();
  rows.forEach((row, index) => {
    const model = row.model.trim();
    const first = firstRowOf.get(model);
    if (model !== '' && first !== undefined) errors.push(`Row ${index + 1}: ${model} is already priced in row ${first + 1}; each model may appear once`);
    else firstRowOf.set(model, index);
  });
  if (errors.length > 0) return { ok: false, errors };
  const parsed = PriceTableSchema.safeParse({ data: read.map((entry) => entry.price) });
  if (parsed.success) return { ok: true, table: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => {
      const [, index, field, ...rest] = issue.path;
      const row = typeof index === 'number' ? rows[index] : undefined;
      const label = PRICE_COLUMNS.find((column) => column.field === field)?.label ?? (field === 'image_variants' ? 'Image variants' : field === 'model' ? 'Model' : String(field ?? 'Prices'));
      const where = row && typeof index === 'number' ? `${rowName(row, index)} · ` : '';
      return `${where}${label}${rest.length > 0 ? ` (${rest.join('.')})` : ''}: ${issue.message}`;
    }),
  };
}

/** Whether two tables price the same: a field set to null and one left out cost the same. */
export function samePrices(left: PriceTable, right: PriceTable): boolean {
  const normal = (table: PriceTable) => JSON.stringify(table, (_field, value: unknown) => (value === null ? undefined : value));
  return normal(left) === normal(right);
}
