import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function OverviewPage() {
  return <Page title="Overview">{null}</Page>;
}
