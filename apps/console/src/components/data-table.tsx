import { useState, type ReactNode } from 'react';
import { sortRows, type SortDirection, type SortValue } from './sort-rows';

export interface Column<Row> {
  /** Unique per table; also what the sort state names. */
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Present: the column sorts (the rows on screen) when its header is pressed. */
  sortValue?: (row: Row) => SortValue;
  numeric?: boolean;
}

interface DataTableProps<Row> {
  caption: string;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** Present: a checkbox per row (batch actions); the set holds row keys. */
  selection?: { selected: ReadonlySet<string | number>; onChange: (next: Set<string | number>) => void };
}

/** A table with a caption, sortable headers (buttons, `aria-sort`) and optional row selection. */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const [sort, setSort] = useState<{ id: string; direction: SortDirection } | null>(null);
  const sortColumn = sort ? props.columns.find((column) => column.id === sort.id) : undefined;
  const rows = sort && sortColumn?.sortValue ? sortRows(props.rows, sortColumn.sortValue, sort.direction) : props.rows;
  const { selection } = props;
  const allSelected = selection !== undefined && rows.length > 0 && rows.every((row) => selection.selected.has(props.rowKey(row)));

  const toggleSort = (id: string) =>
    setSort((current) => (current?.id === id && current.direction === 'ascending' ? { id, direction: 'descending' } : { id, direction: 'ascending' }));
  const toggleRow = (key: string | number) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selection.onChange(next);
  };

  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="select-cell">
                <input
                  type="checkbox"
                  aria-label="Select all rows on this page"
                  checked={allSelected}
                  onChange={() => selection.onChange(allSelected ? new Set() : new Set(rows.map(props.rowKey)))}
                />
              </th>
            )}
            {props.columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className={column.numeric ? 'numeric' : undefined}
                aria-sort={sort?.id === column.id ? sort.direction : undefined}
              >
                {column.sortValue ? (
                  <button type="button" className="sort-button" onClick={() => toggleSort(column.id)}>
                    {column.header}
                    <span aria-hidden="true">{sort?.id === column.id ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ' ↕'}</span>
                  </button>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = props.rowKey(row);
            return (
              <tr key={key}>
                {selection && (
                  <td className="select-cell">
                    <input type="checkbox" aria-label={`Select row ${key}`} checked={selection.selected.has(key)} onChange={() => toggleRow(key)} />
                  </td>
                )}
                {props.columns.map((column) => (
                  <td key={column.id} className={column.numeric ? 'numeric' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
