import { Area, AreaChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartRow, ChartSeries, Metric } from './chart-series';
import { formatBucket, type Bucket } from './usage-range';

interface UsageChartProps {
  caption: string;
  metric: Metric;
  chart: ChartSeries;
  /** Line id → what the legend and the table call it. */
  labels: Readonly<Record<string, string>>;
  bucket: Bucket;
  format: (value: number) => string;
}

const valueOf = (row: ChartRow, lineId: string, metric: Metric): number | null => row.byLine[lineId]?.[metric] ?? null;

/**
 * One metric over time: stacked areas for sums (the stack's top is the total), lines for the
 * error rate (rates do not add up). The table below holds the same numbers for screen readers.
 */
export function UsageChart(props: UsageChartProps) {
  const { chart, metric, labels, bucket, format } = props;
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
      <XAxis dataKey="time" tickFormatter={(time: string) => formatBucket(time, bucket)} stroke="var(--muted)" minTickGap={24} />
      {/* From 0, and never an empty scale: with nothing (or no errors) to draw Recharts would invent 0–400 %. */}
      <YAxis
        tickFormatter={(value: number) => format(value)}
        stroke="var(--muted)"
        width={90}
        domain={[0, (dataMax: number) => (dataMax > 0 ? dataMax : metric === 'errorRate' ? 0.01 : 1)]}
        allowDecimals={metric === 'errorRate'}
      />
      <Tooltip
        labelFormatter={(time) => formatBucket(String(time), bucket)}
        formatter={(value) => format(Number(value))}
        contentStyle={{ background: 'var(--surface)', borderColor: 'var(--border)', color: 'var(--text)' }}
      />
      {/* In line order (by requests), not alphabetical: it matches the stack from the bottom. */}
      {chart.lines.length > 1 && <Legend itemSorter={null} />}
    </>
  );
  return (
    <figure className="usage-figure">
      <figcaption>{props.caption}</figcaption>
      {/* The drawing is for the eye; the table below says the same to a screen reader. */}
      <div className="chart" aria-hidden="true">
        {metric === 'errorRate' ? (
          <LineChart responsive style={{ width: '100%', height: '100%' }} data={chart.rows}>
            {axes}
            {chart.lines.map((line) => (
              <Line
                key={line.id}
                type="monotone"
                name={labels[line.id]}
                dataKey={(row: ChartRow) => valueOf(row, line.id, metric)}
                stroke={line.color}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : (
          <AreaChart responsive style={{ width: '100%', height: '100%' }} data={chart.rows}>
            {axes}
            {chart.lines.map((line) => (
              <Area
                key={line.id}
                type="monotone"
                name={labels[line.id]}
                dataKey={(row: ChartRow) => valueOf(row, line.id, metric)}
                stackId="groups"
                stroke={line.color}
                fill={line.color}
                fillOpacity={0.25}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        )}
      </div>
      <details>
        <summary>{props.caption} as a table</summary>
        <div className="table-wrap">
          <table>
            <caption>
              {props.caption} per {bucket}
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {chart.lines.map((line) => (
                  <th key={line.id} scope="col" className="numeric">
                    {labels[line.id]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.rows.map((row) => (
                <tr key={row.time}>
                  <th scope="row">{formatBucket(row.time, bucket)}</th>
                  {chart.lines.map((line) => {
                    const value = valueOf(row, line.id, metric);
                    return (
                      <td key={line.id} className="numeric">
                        {value === null ? '—' : format(value)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
