import { LandingQueueView } from "@/components/landing/landing-queue-view";

export const metadata = { title: "Merge queue" };

export default async function QueuePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <LandingQueueView queueId={id} />;
}
