import type { Metadata } from "next";
import localFont from "next/font/local";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AppNav } from "@/components/layout/app-nav";
import { StorageBanner } from "@/components/layout/storage-banner";
import { NoticeSound } from "@/components/notices/notice-sound";
import { ServiceWorkerRegistrar } from "@/components/notices/service-worker";
import { serverCaller } from "@/lib/trpc/server";
import { TRPCReactProvider } from "@/lib/trpc/client";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Ralph Control", template: "%s · Ralph Control" },
  description: "Run AI agents in Ralph loops and stay in control of them.",
  // Installable as a web app, which receives Web Push notices (public/sw.js).
  manifest: "/manifest.webmanifest",
  // Files in public/: served as they are, outside the sign-in redirect (proxy.ts).
  icons: {
    icon: [
      { url: "/icons/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
    ],
    apple: [{ url: "/icons/apple-touch-icon.png", sizes: "180x180" }],
  },
};

// Inter's Latin subset, preloaded with a metric-matched fallback: before this, the font
// swapped in after the first paint and re-wrapped the phone header (a 0.06 layout shift).
// Other scripts still come from @fontsource-variable/inter (globals.css) when a page uses them.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  display: "swap",
  variable: "--font-inter-latin",
  adjustFontFallback: "Arial",
});

// Applies the saved theme before first paint, so dark mode never flashes light.
const themeScript = `try{var t=localStorage.getItem("theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts sets the CSP nonce. Reading the user also sends a private page
  // without a live session to sign-in (lib/trpc/server.tsx).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const caller = await serverCaller();
  const storage = await caller.system.storage();
  let user: Awaited<ReturnType<typeof caller.auth.me>> = null;
  let unreadable = false;
  try {
    user = await caller.auth.me();
  } catch (error) {
    // With a broken data folder the page still renders, with the reason, instead of a bare 500.
    // Next's redirects (to sign-in) are thrown too and must pass through.
    if (storage.ok || String((error as { digest?: unknown })?.digest ?? "").startsWith("NEXT_")) throw error;
    unreadable = true;
  }
  return (
    <html lang="en" className={inter.variable} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <TRPCReactProvider>
          {storage.ok ? null : <StorageBanner reason={storage.reason ?? "the data folder cannot be written"} />}
          <AppNav user={user} />
          <ServiceWorkerRegistrar />
          {user && <NoticeSound />}
          <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6">{unreadable ? null : children}</main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
