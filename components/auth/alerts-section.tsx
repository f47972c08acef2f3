"use client";
// Admin: alert channels (generic webhook, Slack, Discord), what each receives,
// "send test", and the delivery log with its dead letters (and "retry").
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRefresh } from "@/components/shared/use-refresh";
import { useState, type FormEvent } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DangerRowAction } from "./danger-row-action";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import type { RouterOutputs } from "@/components/shared/api-types";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage, Field, FormError, SelectField } from "./field";
import { useFormFields } from "./use-form-fields";
import { AddForm, Section, ShownOnce, RowList } from "./section";

// Keyed by the router's enums: a kind or delivery status the server adds fails to compile here until named.
type Kind = RouterOutputs["alerts"]["channels"][number]["events"][number];
type DeliveryStatus = RouterOutputs["alerts"]["deliveries"][number]["status"];
type ChannelKind = "webhook" | "slack" | "discord";

const KIND_LABEL: Record<Kind, string> = {
  attention: "Needs attention",
  approval: "Approval gate opened",
  budget: "Budget threshold",
  runaway: "Runaway alarm",
  health: "Silent agent / health",
  loop_ended: "Loop ended or landed",
  usage_limit: "Usage limit wait",
};
const KINDS = Object.entries(KIND_LABEL) as [Kind, string][];

const STATUS_TONE: Record<DeliveryStatus, BadgeTone> = { delivered: "good", pending: "warn", dead: "bad" };

function KindPicker({ value, onChange, idPrefix }: { value: Kind[]; onChange: (v: Kind[]) => void; idPrefix: string }) {
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <legend className="sr-only">Events</legend>
      {KINDS.map(([kind, label]) => (
        <label key={kind} htmlFor={`${idPrefix}-${kind}`} className="flex items-center gap-1.5">
          <input
            id={`${idPrefix}-${kind}`}
            type="checkbox"
            checked={value.includes(kind)}
            onChange={(e) => onChange(e.target.checked ? [...value, kind] : value.filter((k) => k !== kind))}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

export function AlertsSection() {
  const trpc = useTRPC();
  const channels = useQuery(trpc.alerts.channels.queryOptions());
  const log = useQuery({ ...trpc.alerts.deliveries.queryOptions({ limit: 50 }), refetchInterval: 5_000 });
  const refresh = useRefresh(trpc.alerts.channels.queryKey(), trpc.alerts.deliveries.queryKey());
  const create = useMutation(trpc.alerts.createChannel.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.alerts.updateChannel.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.alerts.deleteChannel.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.alerts.sendTest.mutationOptions({ onSuccess: refresh }));
  const retry = useMutation(trpc.alerts.retry.mutationOptions({ onSuccess: refresh }));
  const { form, setForm, bind } = useFormFields({ name: "", kind: "webhook" as ChannelKind, url: "", loops: "" });
  const [events, setEvents] = useState<Kind[]>(KINDS.map(([k]) => k));
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { loops, ...channel } = form;
    create.mutate(
      { ...channel, events, loopIds: loops.split(/[\s,]+/).filter(Boolean) },
      {
        onSuccess: (made) => {
          setSecret({ name: made.channel.name, value: made.signingSecret });
          setForm({ name: "", kind: "webhook", url: "", loops: "" });
        },
      },
    );
  };

  return (
    <Section
      title="Alerts"
      description="Tell people when a loop needs them. Each message says what happened, the loop's state and links to it; webhook bodies are signed (X-Ralph-Signature, HMAC-SHA256) and carry an Idempotency-Key. Failed deliveries are retried with backoff, then dead-lettered below."
    >
      <FormError
        message={
          errorMessage(channels.error) ??
          errorMessage(update.error) ??
          errorMessage(remove.error) ??
          errorMessage(test.error) ??
          errorMessage(retry.error)
        }
      />
      {secret && (
        <ShownOnce label="Signing secret" value={secret.value} onDone={() => setSecret(null)}>
          <p>
            Channel <strong>{secret.name}</strong> created. Its signing secret (shown once) lets the receiver verify
            X-Ralph-Signature:
          </p>
        </ShownOnce>
      )}
      <RowList label="Alert channels" items={channels.data} empty="No alert channels yet">
        {(channel) => (
          <li key={channel.id} className="space-y-2 py-3">
            <div className="flex flex-wrap items-center gap-3">
              <span className="font-medium">{channel.name}</span>
              <Badge tone="info">{channel.kind}</Badge>
              <span className="font-mono text-slate-600 dark:text-slate-400">{channel.host}</span>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {channel.loopIds.length === 0
                  ? "every loop"
                  : `${channel.loopIds.length} loop${channel.loopIds.length === 1 ? "" : "s"}`}
              </span>
              {!channel.enabled && <Badge>disabled</Badge>}
              <span className="ml-auto" />
              <Button
                variant="secondary"
                aria-label={`Send a test to ${channel.name}`}
                disabled={test.isPending}
                onClick={() => test.mutate({ channelId: channel.id })}
              >
                Send test
              </Button>
              <Button
                variant="ghost"
                aria-label={`${channel.enabled ? "Disable" : "Enable"} ${channel.name}`}
                onClick={() => update.mutate({ id: channel.id, enabled: !channel.enabled })}
              >
                {channel.enabled ? "Disable" : "Enable"}
              </Button>
              <DangerRowAction verb="Delete" name={channel.name} id={channel.id} mutation={remove} />
            </div>
            <KindPicker
              idPrefix={`channel-${channel.id}`}
              value={channel.events}
              onChange={(next) => next.length && update.mutate({ id: channel.id, events: next })}
            />
          </li>
        )}
      </RowList>

      <AddForm title="Add a channel" onSubmit={submit} mutation={create} submitLabel="Add channel" className="mb-8">
        <Field id="alert-name" label="Name" {...bind("name")} />
        <SelectField id="alert-kind" label="Kind" {...bind("kind")}>
          <option value="webhook">Webhook (signed JSON)</option>
          <option value="slack">Slack incoming webhook</option>
          <option value="discord">Discord webhook</option>
        </SelectField>
        <Field id="alert-url" label="Webhook URL" type="url" autoComplete="off" {...bind("url")} />
        <div className="sm:col-span-3">
          <Field
            id="alert-loops"
            label="Only these loops (ids, comma-separated; empty: every loop)"
            {...bind("loops")}
          />
        </div>
        <div className="sm:col-span-3">
          <KindPicker idPrefix="alert-new" value={events} onChange={setEvents} />
        </div>
      </AddForm>

      <h3 className="mb-2 text-sm font-medium">Delivery log</h3>
      {log.data?.length === 0 && <EmptyState title="Nothing sent yet" />}
      {/* Seven columns do not fit a phone: the log scrolls sideways on its own, not the page. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Alert deliveries, scrollable">
        <table className="w-full text-left text-sm" aria-label="Alert deliveries">
          <thead className="text-xs text-slate-600 dark:text-slate-400">
            <tr>
              <th className="py-1 font-medium">Queued</th>
              <th className="font-medium">Channel</th>
              <th className="font-medium">Alert</th>
              <th className="font-medium">Status</th>
              <th className="font-medium">Attempts</th>
              <th className="font-medium">Last answer</th>
              <th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {log.data?.map((d) => (
              <tr key={d.id} data-status={d.status}>
                <td className="py-1.5">
                  <LocalTime date={d.createdAt} />
                </td>
                <td>{d.channel.name}</td>
                <td>
                  {d.kind}
                  {d.loopId && (
                    <a className="ml-1 text-sky-700 underline dark:text-sky-400" href={`/loops/${d.loopId}`}>
                      loop
                    </a>
                  )}
                </td>
                <td>
                  <Badge tone={STATUS_TONE[d.status]}>{d.status === "dead" ? "dead letter" : d.status}</Badge>
                </td>
                <td>{d.attempts}</td>
                <td
                  className="max-w-xs truncate text-xs text-slate-600 dark:text-slate-400"
                  title={d.lastError ?? undefined}
                >
                  {d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : "")}
                </td>
                <td>
                  {d.status === "dead" && (
                    <Button variant="ghost" onClick={() => retry.mutate({ id: d.id })} disabled={retry.isPending}>
                      Retry
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
