"use client";
// The loop page's rarely opened dialogs (share, fork, limits), each loaded
// when it is first opened, so the page's first load neither downloads nor
// evaluates them. The control dialog, the confirmation and the shortcuts'
// help stay in the page: a keyboard shortcut opens them at once.
import dynamic from "next/dynamic";

export const ShareDialog = dynamic(() => import("./share-dialog").then((m) => m.ShareDialog), { ssr: false });
export const ForkDialog = dynamic(() => import("./fork-dialog").then((m) => m.ForkDialog), { ssr: false });
export const LimitsDialog = dynamic(() => import("./limits-dialog").then((m) => m.LimitsDialog), { ssr: false });
