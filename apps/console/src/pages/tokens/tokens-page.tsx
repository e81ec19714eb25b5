import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function TokensPage() {
  return <Page title="Tokens">{null}</Page>;
}
