import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function PlaygroundPage() {
  return <Page title="Playground">{null}</Page>;
}
