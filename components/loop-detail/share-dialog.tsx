"use client";
// Share a read-only report: first what a visitor will see (the redaction
// preview is exactly what the shared page gets), then a link with an
// optional expiry, shown once; existing links are listed and revocable.
import { LocalTime } from "@/components/ui/local-time";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select, TextInput } from "@/components/ui/field";
import { SkeletonRows } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { RedactionPreview } from "./redaction-preview";

const EXPIRY = [
  { label: "Never", hours: 0 },
  { label: "1 hour", hours: 1 },
  { label: "24 hours", hours: 24 },
  { label: "7 days", hours: 24 * 7 },
  { label: "30 days", hours: 24 * 30 },
];

export function ShareDialog({ loopId, onClose }: { loopId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useQuery(trpc.loops.sharePreview.queryOptions({ id: loopId }));
  const links = useQuery(trpc.share.list.queryOptions({ loopId }));
  const [hours, setHours] = useState(0);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.share.list.queryFilter({ loopId }));
  const create = useMutation(trpc.share.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.share.revoke.mutationOptions({ onSuccess: refresh }));

  async function onCreate() {
    try {
      const link = await create.mutateAsync({ loopId, ...(hours ? { expiresInHours: hours } : {}) });
      setCreated(`${window.location.origin}${link.path}`);
    } catch (error) {
      toast(`Could not create the link: ${errorMessage(error)}`, "error");
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title="Share a read-only report"
      description="Anyone with the link sees the summary, charts, iterations and end-of-run report. Secrets, environment values, webhook headers, the workspace path and operator names are removed."
    >
      <div className="space-y-5">
        <section aria-labelledby="share-preview-title">
          <h3 id="share-preview-title" className="mb-2 text-sm font-semibold">
            What the link will show
          </h3>
          {preview.isPending ? (
            <SkeletonRows rows={2} label="Loading the preview" />
          ) : preview.isError ? (
            <p className="text-sm text-rose-700">{errorMessage(preview.error)}</p>
          ) : (
            <RedactionPreview data={preview.data} />
          )}
        </section>
        <section
          aria-labelledby="share-create-title"
          className="rounded-lg border border-slate-200 p-3 dark:border-slate-800"
        >
          <h3 id="share-create-title" className="mb-2 text-sm font-semibold">
            New link
          </h3>
          <div className="flex flex-wrap items-end gap-2">
            <Field id="share-expiry" label="Expires">
              <Select
                id="share-expiry"
                value={hours}
                onChange={(e) => setHours(Number(e.target.value))}
                className="w-40"
              >
                {EXPIRY.map((x) => (
                  <option key={x.hours} value={x.hours}>
                    {x.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Button onClick={onCreate} pending={create.isPending} disabled={create.isPending}>
              Create link
            </Button>
          </div>
          {created && (
            <div className="mt-3">
              <Field id="share-url" label="Link (shown once: copy it now)">
                <div className="flex gap-2">
                  <TextInput
                    id="share-url"
                    readOnly
                    // The new link takes focus (and is selected), so it is announced and ready to copy.
                    autoFocus
                    value={created}
                    onFocus={(e) => e.target.select()}
                    data-testid="share-url"
                  />
                  <Button
                    variant="secondary"
                    onClick={() =>
                      void navigator.clipboard?.writeText(created).then(() => toast("Link copied", "success"))
                    }
                  >
                    Copy
                  </Button>
                </div>
              </Field>
            </div>
          )}
        </section>
        <section aria-labelledby="share-links-title">
          <h3 id="share-links-title" className="mb-2 text-sm font-semibold">
            Links to this loop
          </h3>
          {links.isPending ? (
            <SkeletonRows rows={2} label="Loading links" className="h-8" />
          ) : links.isError ? (
            <p className="text-sm text-rose-700">{errorMessage(links.error)}</p>
          ) : links.data.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No links yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
              {links.data.map((l) => (
                <li key={l.id} data-testid="share-link" className="flex flex-wrap items-center gap-2 px-3 py-2">
                  <Badge tone={l.state === "active" ? "good" : "neutral"}>{l.state}</Badge>
                  <span className="text-slate-600 dark:text-slate-400">
                    created <LocalTime date={l.createdAt} />
                  </span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {l.expiresAt ? (
                      <>
                        expires <LocalTime date={l.expiresAt} />
                      </>
                    ) : (
                      "no expiry"
                    )}
                  </span>
                  {l.lastAccessedAt && (
                    <span className="text-slate-600 dark:text-slate-400">
                      last opened <LocalTime date={l.lastAccessedAt} />
                    </span>
                  )}
                  {l.state === "active" && revoking !== l.id && (
                    <Button variant="danger" size="sm" className="ml-auto" onClick={() => setRevoking(l.id)}>
                      Revoke
                    </Button>
                  )}
                  {l.state === "active" && revoking === l.id && (
                    // A revoked link cannot be brought back: it asks first, in place.
                    <span className="ml-auto flex items-center gap-2" role="group" aria-label="Confirm revoke">
                      <span className="text-slate-700 dark:text-slate-300">Anyone holding it loses access.</span>
                      <Button variant="secondary" size="sm" onClick={() => setRevoking(null)}>
                        Keep
                      </Button>
                      <Button
                        variant="danger"
                        size="sm"
                        pending={revoke.isPending && revoke.variables?.id === l.id}
                        onClick={() =>
                          revoke.mutate(
                            { id: l.id },
                            { onError: (e) => toast(errorMessage(e), "error"), onSettled: () => setRevoking(null) },
                          )
                        }
                      >
                        Revoke for good
                      </Button>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </Dialog>
  );
}
