import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function AccountsPage() {
  return <Page title="Accounts">{null}</Page>;
}
