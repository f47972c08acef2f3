"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { UserMenu, type NavUser } from "@/components/auth/user-menu";
import { ThemeToggle } from "./theme-toggle";

const LINKS = [
  { href: "/", label: "Loops" },
  { href: "/loops/new", label: "New loop", operatorOnly: true },
  { href: "/races", label: "Races" },
  { href: "/queues", label: "Queues" },
  { href: "/inbox", label: "Inbox" },
  { href: "/settings", label: "Settings" },
];

export function AppNav({ user = null }: { user?: NavUser | null }) {
  const pathname = usePathname();
  return (
    <header className="no-print border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      {/* On phones the links take a row of their own (two when they do not fit), so nothing scrolls sideways at 375 px. */}
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-1 gap-y-2 px-4 py-3 sm:flex-nowrap sm:gap-4 sm:px-6"
      >
        <Link href="/" className="mr-2 flex items-center gap-2 whitespace-nowrap font-semibold tracking-tight sm:mr-6">
          <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-full bg-emerald-500" />
          Ralph Control
        </Link>
        <div className="order-3 -mx-2 flex w-full flex-wrap items-center gap-1 sm:order-none sm:mx-0 sm:w-auto sm:flex-nowrap sm:gap-4">
          {user &&
            LINKS.filter((link) => !link.operatorOnly || user.permissions.operateLoops).map((link) => {
              const active = link.href === "/" ? pathname === "/" : pathname.startsWith(link.href);
              return (
                <Link
                  key={link.href}
                  href={link.href}
                  aria-current={active ? "page" : undefined}
                  className={`whitespace-nowrap rounded-md px-2 py-1.5 text-sm sm:px-3 ${
                    active
                      ? "bg-slate-100 font-medium text-slate-900 dark:bg-slate-800 dark:text-white"
                      : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
                  }`}
                >
                  {link.label}
                </Link>
              );
            })}
        </div>
        <div className="ml-auto flex items-center gap-2">
          {user && <UserMenu user={user} />}
          <ThemeToggle />
        </div>
      </nav>
    </header>
  );
}
