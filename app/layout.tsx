import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppNav } from "@/components/layout/app-nav";
import { TRPCReactProvider } from "@/lib/trpc/client";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Ralph Control", template: "%s · Ralph Control" },
  description: "Run AI agents in Ralph loops and stay in control of them.",
};

// Applies the saved theme before first paint, so dark mode never flashes light.
const themeScript = `try{var t=localStorage.getItem("theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <TRPCReactProvider>
          <AppNav />
          <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6">{children}</main>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
