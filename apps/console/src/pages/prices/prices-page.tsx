import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function PricesPage() {
  return <Page title="Prices">{null}</Page>;
}
