import { PRICE_COLUMNS, type PriceRow } from './price-rows';

/** The editable rows: one input per field, labelled by column and row for a screen reader. */
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
                  <input aria-label={`Model, row ${index + 1}`} value={row.model} onChange={(event) => update(row.key, (current) => ({ ...current, model: event.target.value }))} />
                </td>
                {PRICE_COLUMNS.map((column) => (
                  <td key={column.field} className="numeric">
                    <input
                      aria-label={`${column.label} (${column.unit}), row ${index + 1}`}
                      inputMode="decimal"
                      size={8}
                      value={row.amounts[column.field]}
                      onChange={(event) => update(row.key, (current) => ({ ...current, amounts: { ...current.amounts, [column.field]: event.target.value } }))}
                    />
                  </td>
                ))}
                <td>
                  <input
                    aria-label={`Image variants, row ${index + 1}`}
                    value={row.imageVariants}
                    onChange={(event) => update(row.key, (current) => ({ ...current, imageVariants: event.target.value }))}
                  />
                </td>
                <td>
                  <div className="toolbar">
                    <button type="button" aria-label={`Move row ${index + 1} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                      ↑
                    </button>
                    <button type="button" aria-label={`Move row ${index + 1} down`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                      ↓
                    </button>
                    <button type="button" className="danger" aria-label={`Remove row ${index + 1}`} onClick={() => props.onChange(rows.filter((other) => other.key !== row.key))}>
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
