import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ReportView } from "@/components/report/report-view";
import { ErrorState } from "@/components/ui/error-state";
import { loadSharedReport } from "./load-report";
import "./report-print.css";

export const dynamic = "force-dynamic";
// A token in the URL must not travel on in Referer headers or into search indexes.
export const metadata: Metadata = {
  title: "Shared loop report",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default async function SharedReportPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const loaded = await loadSharedReport(token);
  // Revoked, expired and unknown links look the same: a 404, at once (nothing is cached).
  if (loaded.kind === "missing") notFound();
  if (loaded.kind === "limited")
    return (
      <ErrorState
        title="Too many requests"
        message="This address opened too many shared pages. Wait a few minutes and reload."
      />
    );
  return <ReportView report={loaded.report} final={loaded.final} token={token} generatedAt={loaded.generatedAt} />;
}
