import { type KeyboardEvent, useRef } from "react";

interface TabSwitchProps<T extends string> {
  /** The tabs in order, each with its label. */
  tabs: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

/**
 * A row of tabs (Tremor's solid TabList look) for the pages shown before sign-in, which carry no
 * Tremor code. The chosen tab is `aria-selected`; arrow keys move between tabs as WAI-ARIA's tabs do.
 */
export function TabSwitch<T extends string>({ tabs, value, onChange, className = "" }: TabSwitchProps<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.value);
    buttons.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      className={`grid gap-1 rounded-tremor-default bg-tremor-background-subtle p-0.5 ${className}`}
      style={{ gridTemplateColumns: `repeat(${tabs.length}, minmax(0, 1fr))` }}
    >
      {tabs.map((tab, index) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`rounded-tremor-small px-2.5 py-1 text-tremor-default font-medium outline-none focus-visible:ring-2 focus-visible:ring-tremor-brand-muted ${
              selected
                ? "bg-tremor-background text-tremor-brand shadow-tremor-input"
                : "text-tremor-content hover:text-tremor-content-emphasis"
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
