import { emptyPriceRow, rowsFromTable, samePrices, toPriceTable, type PriceRow } from './price-rows';

const row = (model: string, amounts: Partial<PriceRow['amounts']>, imageVariants = ''): PriceRow => {
  const empty = emptyPriceRow();
  return { ...empty, model, amounts: { ...empty.amounts, ...amounts }, imageVariants };
};

describe('price table ⇄ rows', () => {
  it('shows micro-USD as dollars and reads them back to the same table', () => {
    const table = {
      data: [
        { model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cache_read: 1_250_000, image_variants: { 'hd/1024x1792': 80_000, '1024x1024': 40_000 } },
        { model: 'claude-*', input: 3_000_000, output: 15_000_000, cache_write: 3_750_000, search_unit: null },
      ],
    };
    const rows = rowsFromTable(table);
    expect(rows[0]).toMatchObject({ model: 'gpt-4o', amounts: { input: '2.5', output: '10', cache_read: '1.25', image: '' }, imageVariants: 'hd/1024x1792=0.08, 1024x1024=0.04' });
    expect(toPriceTable(rows)).toEqual({
      ok: true,
      table: {
        data: [
          { model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cache_read: 1_250_000, image_variants: { 'hd/1024x1792': 80_000, '1024x1024': 40_000 } },
          { model: 'claude-*', input: 3_000_000, output: 15_000_000, cache_write: 3_750_000 },
        ],
      },
    });
  });

  it('gives every row a key of its own, so reordering keeps the inputs', () => {
    const keys = [...rowsFromTable({ data: [{ model: 'a', input: 1, output: 1 }, { model: 'b', input: 1, output: 1 }] }), emptyPriceRow()].map((entry) => entry.key);
    expect(new Set(keys).size).toBe(3);
  });

  it('names the row and column of every problem before sending anything', () => {
    const outcome = toPriceTable([row('gpt-4o', { input: '1', output: '' }), row('', { input: 'abc', output: '2' }), row('x', { input: '1', output: '1' }, 'hd=0.1, broken')]);
    expect(outcome).toEqual({
      ok: false,
      errors: [
        'Row 1 (gpt-4o) · Input and output: set both, or neither for a model priced only by its units',
        expect.stringMatching(/^Row 2 · Input: "abc" is not an amount/),
        expect.stringMatching(/^Row 3 \(x\) · Image variants: write variant=dollars.*"broken"/),
      ],
    });
  });

  it('refuses a model priced twice, naming both rows', () => {
    expect(toPriceTable([row('gpt-4o', { input: '1', output: '1' }), row(' gpt-4o ', { input: '2', output: '2' })])).toEqual({
      ok: false,
      errors: ['Row 2: gpt-4o is already priced in row 1; each model may appear once'],
    });
  });

  it('passes on what the contract refuses, by row', () => {
    const outcome = toPriceTable([row('', { input: '1', output: '1' }), row('y', { input: '1', output: '1' }, 'huge-size=1')]);
    expect(outcome).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^Row 1 · Model: /), expect.stringMatching(/^Row 2 \(y\) · Image variants \(huge-size\): a size/)],
    });
  });
});

describe('samePrices', () => {
  it('counts a null field and a missing one as the same price, any other difference as a change', () => {
    const stored = { data: [{ model: 'a', input: 1, output: 2, cache_read: null, image_variants: null }] };
    expect(samePrices(stored, { data: [{ model: 'a', input: 1, output: 2 }] })).toBe(true);
    expect(samePrices(stored, { data: [{ model: 'a', input: 1, output: 3 }] })).toBe(false);
  });
});

describe('what the table does not edit (issue 26)', () => {
  it('keeps per-call hosted tool prices, tier multipliers and per-size video prices through an edit; audio output is a column', () => {
    const entry = {
      model: 'gpt-4.1',
      input: 2_000_000,
      output: 8_000_000,
      tool_calls: { web_search: 10_000 },
      service_tiers: { priority: 1.75 },
      video_second_variants: { '1280x720': 100_000 },
      audio_output: 80_000_000,
    };
    const [edited] = rowsFromTable({ data: [entry] });
    expect(edited?.amounts.audio_output).toBe('80');
    expect(toPriceTable([{ ...edited!, amounts: { ...edited!.amounts, input: '2.5' } }])).toEqual({ ok: true, table: { data: [{ ...entry, input: 2_500_000 }] } });
  });
});
