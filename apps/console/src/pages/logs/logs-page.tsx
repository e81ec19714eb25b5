import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function LogsPage() {
  return <Page title="Logs">{null}</Page>;
}
