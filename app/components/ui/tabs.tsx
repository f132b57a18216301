/**
 * Tabs as the WAI-ARIA pattern has them: the chosen tab is the list's one tab stop, the arrow keys
 * (and Home and End) move along the list and show the tab they land on, and only the chosen
 * panel is rendered. The same component names and props as before, without a library: the home
 * page is where this runs, and it is kept light (docs/benchmarks.md).
 */
import { clsx } from "clsx";
import { createContext, use, useId, useState, type ComponentProps, type KeyboardEvent } from "react";

interface TabsState {
  value: string;
  choose: (value: string) => void;
  idOf: (part: "tab" | "panel", value: string) => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = use(TabsContext);
  if (!state) throw new Error("A tab is used outside <Tabs>");
  return state;
}

export function Tabs({ defaultValue, ...props }: ComponentProps<"div"> & { defaultValue: string }) {
  const [value, choose] = useState(defaultValue);
  const baseId = useId();
  const idOf = (part: "tab" | "panel", tab: string) => `${baseId}-${part}-${tab}`;
  return (
    <TabsContext value={{ value, choose, idOf }}>
      <div {...props} />
    </TabsContext>
  );
}

const KEY_MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  ArrowRight: (index, count) => (index + 1) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

function moveAlong(event: KeyboardEvent<HTMLDivElement>) {
  const move = KEY_MOVES[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
  const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
  const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (index < 0) return;
  event.preventDefault();
  const next = tabs[move(index, tabs.length)]!;
  next.focus();
  next.click();
}

export function TabsList({ fill = false, className, ...props }: ComponentProps<"div"> & { fill?: boolean }) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={moveAlong}
      className={clsx(
        "gap-1 rounded-xl border border-aurora-400/20 bg-night-900/80 p-1",
        // `fill`: the tabs share a narrow screen's width equally, then sit side by side.
        fill ? "grid w-full auto-cols-fr grid-flow-col sm:inline-flex sm:w-auto" : "inline-flex flex-wrap",
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({
  value,
  compact = false,
  className,
  ...props
}: ComponentProps<"button"> & { value: string; compact?: boolean }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idOf("tab", value)}
      aria-controls={tabs.idOf("panel", value)}
      aria-selected={selected}
      data-state={selected ? "active" : "inactive"}
      tabIndex={selected ? 0 : -1}
      onClick={() => tabs.choose(value)}
      className={clsx(
        "inline-flex items-center rounded-lg py-2 font-semibold transition-colors",
        // `compact`: small enough for three tabs with counts on a phone.
        compact ? "justify-center gap-1.5 px-1.5 text-xs whitespace-nowrap sm:gap-2 sm:px-4 sm:text-sm" : "gap-2 px-4 text-sm",
        selected ? "bg-aurora-500/25 text-white" : "text-mist-300 hover:text-mist-100",
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ value, className, ...props }: ComponentProps<"div"> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idOf("panel", value)}
      aria-labelledby={tabs.idOf("tab", value)}
      tabIndex={0}
      className={clsx("mt-6", className)}
      {...props}
    />
  );
}
