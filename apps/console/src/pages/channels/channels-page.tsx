import { Page } from '../../components/page';

// Placeholder until the page lands (issue 16).
export function ChannelsPage() {
  return <Page title="Channels">{null}</Page>;
}
