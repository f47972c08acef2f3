import { LandingQueueList } from "@/components/landing/landing-queue-view";

export const metadata = { title: "Merge queues" };

export default function QueuesPage() {
  return <LandingQueueList />;
}
