"use client";
// This browser's reach: Web Push on or off (the subscription goes to the
// server, which sends classed notices to it), and the open tab's sound.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { chime, setSoundEnabled, useSoundEnabled } from "./notice-sound";

const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
const never = () => () => undefined;

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

export function PushSettings() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const subscriptions = useQuery(trpc.notices.subscriptions.queryOptions());
  const [here, setHere] = useState<PushSubscription | null>(null);
  const supported = useSyncExternalStore(never, pushSupported, () => true);
  const sound = useSoundEnabled();
  useEffect(() => {
    void currentSubscription().then(setHere);
  }, []);
  const refresh = () => queryClient.invalidateQueries(trpc.notices.subscriptions.queryFilter());
  const subscribe = useMutation({
    mutationFn: async () => {
      if ((await Notification.requestPermission()) !== "granted")
        throw new Error("Notifications are blocked for this site");
      const { publicKey } = await client.notices.pushKey.query();
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: publicKey,
      });
      const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      await client.notices.subscribe.mutate({ endpoint: json.endpoint, keys: json.keys });
      return subscription;
    },
    onSuccess: async (subscription) => {
      setHere(subscription);
      toast("Push notices are on for this browser", "success");
      await refresh();
    },
    onError: (error) => toast(errorMessage(error), "error", 8000),
  });
  const unsubscribe = useMutation({
    mutationFn: async () => {
      if (!here) return;
      await client.notices.unsubscribe.mutate({ endpoint: here.endpoint });
      await here.unsubscribe();
    },
    onSuccess: async () => {
      setHere(null);
      await refresh();
    },
    onError: (error) => toast(errorMessage(error), "error", 8000),
  });
  return (
    <section aria-labelledby="push-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="push-title" className="font-semibold">
        Notices on this device
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {supported
          ? `Push notices ${here ? "are on" : "are off"} in this browser; ${subscriptions.data?.length ?? 0} browser(s) of yours receive them.`
          : "This browser cannot receive push notices (install the dashboard as an app, or use another browser)."}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {supported &&
          (here ? (
            <Button variant="secondary" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
              Turn off push notices
            </Button>
          ) : (
            <Button disabled={subscribe.isPending} onClick={() => subscribe.mutate()}>
              Turn on push notices
            </Button>
          ))}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={sound}
            onChange={(e) => {
              setSoundEnabled(e.target.checked);
              if (e.target.checked) chime();
            }}
          />
          Play a sound in an open tab when a notice arrives
        </label>
      </div>
    </section>
  );
}
