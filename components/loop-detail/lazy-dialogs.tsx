"use client";
// The loop page's rarely opened dialogs (share, fork, limits), each loaded
// apart from the page, so the page's first load neither downloads nor
// evaluates them. They are fetched once the page has settled (or when the
// pointer or focus reaches the controls), so a key pressed later opens one at
// once instead of waiting for its chunk on a loaded machine. The control
// dialog, the confirmation and the shortcuts' help stay in the page.
import dynamic from "next/dynamic";

const share = () => import("./share-dialog").then((m) => m.ShareDialog);
const fork = () => import("./fork-dialog").then((m) => m.ForkDialog);
const limits = () => import("./limits-dialog").then((m) => m.LimitsDialog);

export const ShareDialog = dynamic(share, { ssr: false });
export const ForkDialog = dynamic(fork, { ssr: false });
export const LimitsDialog = dynamic(limits, { ssr: false });

let preloaded = false;
/** Fetches the three dialogs' code (once); what is already loaded costs nothing. */
export function preloadDialogs() {
  if (preloaded) return;
  preloaded = true;
  void Promise.all([share(), fork(), limits()]).catch(() => {
    preloaded = false;
  });
}

/** Preloads the dialogs after the page has been quiet a while, when the browser is idle. */
export function preloadDialogsWhenSettled(afterMs = 4000): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === "function") idle = requestIdleCallback(preloadDialogs, { timeout: 5000 });
    else preloadDialogs();
  }, afterMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
