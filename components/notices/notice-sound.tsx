"use client";
// The sound option of an open tab: with it on (this browser only, kept in
// localStorage), a notice newer than any this tab has seen plays a short
// chime. Polls the inbox while a signed-in page is open.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useTRPC } from "@/lib/trpc/client";

const KEY = "ralph-notice-sound";
const EVENT = "ralph-notice-sound-changed";

function soundEnabled(): boolean {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSoundEnabled(on: boolean) {
  localStorage.setItem(KEY, on ? "on" : "off");
  window.dispatchEvent(new Event(EVENT));
}

const onSoundChange = (notify: () => void) => {
  window.addEventListener(EVENT, notify);
  return () => window.removeEventListener(EVENT, notify);
};

/** Whether this browser plays the sound (off while rendering on the server). */
export const useSoundEnabled = () => useSyncExternalStore(onSoundChange, soundEnabled, () => false);

/** A two-tone chime made on the spot (no audio file to fetch). */
export function chime() {
  const audio = new AudioContext();
  [880, 1320].forEach((hz, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.15 + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(audio.currentTime + i * 0.15);
    osc.stop(audio.currentTime + i * 0.15 + 0.3);
  });
}

export function NoticeSound() {
  const trpc = useTRPC();
  const on = useSoundEnabled();
  const inbox = useQuery({ ...trpc.notices.inbox.queryOptions(), enabled: on, refetchInterval: 10_000 });
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (!inbox.data) return;
    const newest = Math.max(0, ...inbox.data.open.flatMap((g) => g.notices.map((n) => n.id)));
    // The first read only sets the mark: what was there before the tab opened is not news.
    if (seen.current !== null && newest > seen.current) chime();
    seen.current = newest;
  }, [inbox.data]);
  return null;
}
