import type { UsageSeries } from '@chat-relay/contract';
import { useId } from 'react';
import { formatCount, formatMicroUsd, formatPercent } from '../../api/format';

function Card(props: { label: string; value: string }) {
  const id = useId();
  // A named group, so "the Requests card" is one thing to a screen reader (and to a test).
  return (
    <div className="card" role="group" aria-labelledby={id}>
      <div id={id} className="muted">
        {props.label}
      </div>
      <div className="value">{props.value}</div>
    </div>
  );
}

/** The range's totals: what the charts add up to. */
export function OverviewCards(props: { totals: UsageSeries['totals'] }) {
  const { totals } = props;
  return (
    <div className="cards">
      <Card label="Requests" value={formatCount(totals.requests)} />
      <Card label="Tokens" value={formatCount(totals.prompt_tokens + totals.completion_tokens)} />
      <Card label="Cost" value={formatMicroUsd(totals.cost)} />
      <Card label="Error rate" value={totals.requests > 0 ? formatPercent(totals.errors / totals.requests) : '—'} />
    </div>
  );
}
