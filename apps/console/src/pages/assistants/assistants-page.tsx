import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function AssistantsPage() {
  return <Page title="Assistants">{null}</Page>;
}
