import { InboxView } from "@/components/notices/inbox-view";

export const metadata = { title: "Inbox" };

export default function InboxPage() {
  return <InboxView />;
}
