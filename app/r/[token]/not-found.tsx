export default function SharedReportNotFound() {
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-2xl font-semibold">This shared report is not available</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        The link may have expired or been revoked, or it was copied incompletely. Ask whoever shared it for a new one.
      </p>
    </div>
  );
}
