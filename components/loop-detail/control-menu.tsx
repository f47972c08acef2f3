"use client";
// "More": the controls not valid in the loop's current state, each with the
// reason it is not, plus Clone and the shortcut list. A menu button
// (WAI-ARIA APG): Enter, Space or ArrowDown opens it on the first item,
// ArrowUp on the last; arrows, Home and End move; Escape closes it and
// returns focus to the button; Tab closes it. Unavailable items stay
// focusable (aria-disabled) so a screen reader reads why.
import Link from "next/link";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { buttonClass } from "@/components/ui/button";

export interface MenuEntry {
  key: string;
  label: string;
  /** Why it cannot be used now; null when it can. */
  reason: string | null;
  onSelect?: () => void;
  href?: string;
}

export function ControlMenu({ entries }: { entries: MenuEntry[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLElement | null)[]>([]);
  const [focusOn, setFocusOn] = useState<number | null>(null);
  const menuId = useId();

  useEffect(() => {
    if (open && focusOn !== null) items.current[focusOn]?.focus();
  }, [open, focusOn]);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      const root = button.current?.parentElement;
      if (root && !root.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const openAt = (index: number) => {
    setOpen(true);
    setFocusOn(index);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    setFocusOn(null);
    if (refocus) button.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      openAt(0);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      openAt(entries.length - 1);
    }
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const at = focusOn ?? 0;
    const move = (to: number) => {
      e.preventDefault();
      setFocusOn((to + entries.length) % entries.length);
    };
    // Keys inside the menu are the menu's: no single-key loop shortcut fires from here.
    e.stopPropagation();
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(entries.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      close(true);
    } else if (e.key === "Tab") close(false);
  };

  const select = (entry: MenuEntry) => {
    if (entry.reason !== null) return;
    close(!entry.href);
    entry.onSelect?.();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
        className={buttonClass("ghost", "sm")}
        data-testid="more-controls"
      >
        More <span aria-hidden>▾</span>
      </button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-label="More controls"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {entries.map((entry, i) => {
            const disabled = entry.reason !== null;
            const className = `flex w-full flex-col items-start rounded px-2 py-1.5 text-left focus:outline-none focus-visible:bg-slate-100 focus-visible:ring-2 focus-visible:ring-sky-600 dark:focus-visible:bg-slate-800 ${
              disabled ? "cursor-not-allowed" : "hover:bg-slate-100 dark:hover:bg-slate-800"
            }`;
            const body = (
              <>
                <span className={disabled ? "text-slate-500 dark:text-slate-400" : "font-medium"}>{entry.label}</span>
                {disabled && <span className="text-xs text-slate-600 dark:text-slate-400">{entry.reason}</span>}
              </>
            );
            return (
              <li key={entry.key} role="none">
                {entry.href && !disabled ? (
                  <Link
                    ref={(el) => {
                      items.current[i] = el;
                    }}
                    role="menuitem"
                    tabIndex={-1}
                    href={entry.href}
                    className={className}
                    onClick={() => select(entry)}
                  >
                    {body}
                  </Link>
                ) : (
                  <button
                    ref={(el) => {
                      items.current[i] = el;
                    }}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-disabled={disabled || undefined}
                    data-menu-control={entry.key}
                    className={className}
                    onClick={() => select(entry)}
                  >
                    {body}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
