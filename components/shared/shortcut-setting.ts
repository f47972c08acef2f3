"use client";
// Whether single-key shortcuts are on (WCAG 2.1.4: a user must be able to
// turn them off). Kept in this browser's localStorage; on by default.
import { useSyncExternalStore } from "react";

const KEY = "ralph.shortcuts";
const EVENT = "ralph-shortcuts-change";

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

export function setShortcutsEnabled(on: boolean) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  window.dispatchEvent(new Event(EVENT));
}

/** True when shortcuts are on; false during server rendering, where no key can be pressed anyway. */
export const useShortcutsEnabled = () => useSyncExternalStore(subscribe, read, () => false);
