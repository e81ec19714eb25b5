import { sortRows } from './sort-rows';

describe('sortRows', () => {
  const rows = [{ v: 10 }, { v: 9 }, { v: null }, { v: 100 }];

  it('orders numbers as numbers, both ways, with empty values last either way', () => {
    expect(sortRows(rows, (row) => row.v, 'ascending').map((row) => row.v)).toEqual([9, 10, 100, null]);
    expect(sortRows(rows, (row) => row.v, 'descending').map((row) => row.v)).toEqual([100, 10, 9, null]);
  });

  it('orders text naturally (model-2 before model-10) and leaves the input untouched', () => {
    const names = [{ n: 'model-10' }, { n: 'model-2' }, { n: 'Alpha' }];
    expect(sortRows(names, (row) => row.n, 'ascending').map((row) => row.n)).toEqual(['Alpha', 'model-2', 'model-10']);
    expect(names.map((row) => row.n)).toEqual(['model-10', 'model-2', 'Alpha']);
  });
});
