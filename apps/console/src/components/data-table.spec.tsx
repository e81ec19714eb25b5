import { fireEvent, render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from './data-table';

interface Row {
  id: number;
  name: string;
  cost: number;
}
const rows: Row[] = [
  { id: 1, name: 'beta', cost: 30 },
  { id: 2, name: 'alpha', cost: 5 },
  { id: 3, name: 'gamma', cost: 12 },
];
const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, sortValue: (row) => row.name },
  { id: 'cost', header: 'Cost', cell: (row) => row.cost, sortValue: (row) => row.cost, numeric: true },
];
const namesOnScreen = () => screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').at(-2)?.textContent);

describe('DataTable', () => {
  it('sorts by a header button, ascending then descending, and says so with aria-sort', () => {
    render(<DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    const costHeader = screen.getByRole('columnheader', { name: /Cost/ });

    fireEvent.click(within(costHeader).getByRole('button'));
    expect(costHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['alpha5', 'gamma12', 'beta30']);

    fireEvent.click(within(costHeader).getByRole('button'));
    expect(costHeader.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['beta30', 'gamma12', 'alpha5']);
  });

  it('selects rows one by one and all at once, by labelled checkboxes', () => {
    let selected = new Set<string | number>();
    const { rerender } = render(
      <DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} selection={{ selected, onChange: (next) => (selected = next) }} />,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect([...selected]).toEqual([2]);

    rerender(<DataTable caption="Things" columns={columns} rows={rows} rowKey={(row) => row.id} selection={{ selected, onChange: (next) => (selected = next) }} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect([...selected].sort()).toEqual([1, 2, 3]);
    expect(namesOnScreen()).toHaveLength(3);
  });
});
