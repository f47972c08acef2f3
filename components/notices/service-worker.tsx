"use client";
// Registers public/sw.js, which shows Web Push notices and opens their deep
// links; the manifest (public/manifest.webmanifest) makes the dashboard installable.
import { useEffect } from "react";

export function ServiceWorkerRegistrar() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: Error) => {
      console.warn("The service worker could not be registered:", error.message);
    });
  }, []);
  return null;
}
