import { PRICE_COLUMNS, type PriceRow } from './price-rows';

/**
 * The editable rows: one input per field, labelled `Row N: field` for a screen reader (row first,
 * so `Row 1: model` is not part of `Row 11: model` when a browser test matches labels loosely).
 */
export function PriceTableEditor(props: { rows: readonly PriceRow[]; shown: (row: PriceRow) => boolean; onChange: (rows: PriceRow[]) => void }) {
  const { rows } = props;
  const update = (key: number, change: (row: PriceRow) => PriceRow) => props.onChange(rows.map((row) => (row.key === key ? change(row) : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    props.onChange(next);
  };
  return (
    <div className="table-wrap">
      <table className="price-table">
        <caption>Prices (the first row whose model or glob matches prices a request)</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Model</th>
            {PRICE_COLUMNS.map((column) => (
              <th key={column.field} scope="col" className="numeric">
                {column.label}
                <br />
                <small className="muted">{column.unit}</small>
              </th>
            ))}
            <th scope="col">
              Image variants
              <br />
              <small className="muted">variant=USD per image</small>
            </th>
            <th scope="col">Row</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) =>
            !props.shown(row) ? null : (
              <tr key={row.key}>
                <td className="numeric">{index + 1}</td>
                <td>
                  <input aria-label={`Row ${index + 1}: model`} value={row.model} onChange={(event) => update(row.key, (current) => ({ ...current, model: event.target.value }))} />
                </td>
                {PRICE_COLUMNS.map((column) => (
                  <td key={column.field} className="numeric">
                    <input
                      aria-label={`Row ${index + 1}: ${column.label.toLowerCase()} (${column.unit})`}
                      inputMode="decimal"
                      size={8}
                      value={row.amounts[column.field]}
                      onChange={(event) => update(row.key, (current) => ({ ...current, amounts: { ...current.amounts, [column.field]: event.target.value } }))}
                    />
                  </td>
                ))}
                <td>
                  <input
                    aria-label={`Row ${index + 1}: image variants`}
                    value={row.imageVariants}
                    onChange={(event) => update(row.key, (current) => ({ ...current, imageVariants: event.target.value }))}
                  />
                </td>
                <td>
                  <div className="toolbar">
                    <button type="button" aria-label={`Row ${index + 1}: move up`} disabled={index === 0} onClick={() => move(index, -1)}>
                      ↑
                    </button>
                    <button type="button" aria-label={`Row ${index + 1}: move down`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                      ↓
                    </button>
                    <button type="button" className="danger" aria-label={`Row ${index + 1}: remove`} onClick={() => props.onChange(rows.filter((other) => other.key !== row.key))}>
                      Remove
                    </button>
                  </div>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
