// Shown on every page when the data folder cannot take writes (read-only
// mount, full disk): the operator sees the reason instead of bare 500s.
export function StorageBanner({ reason }: { reason: string }) {
  return (
    <div
      role="alert"
      data-testid="storage-banner"
      className="border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <strong>Storage problem:</strong> {reason}. Loops cannot save their work until this is fixed; see{" "}
      <code>/api/health</code>.
    </div>
  );
}
