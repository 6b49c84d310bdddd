import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
} from "react";
import type { SettingsTabKey } from "./settings-dialog";

// The dialog (its tabs, the provider forms) is a chunk of its own, fetched after the first screen.
const SettingsDialog = lazy(() =>
  import("./settings-dialog").then((module) => ({ default: module.SettingsDialog })),
);

interface SettingsContextValue {
  openSettings: (tab?: SettingsTabKey) => void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

/** Settings is a modal, not a route: any screen under /app can open it, on any of its tabs. */
export function SettingsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<SettingsTabKey>("account");
  const openSettings = useCallback((nextTab: SettingsTabKey = "account") => {
    setTab(nextTab);
    setOpen(true);
  }, []);
  const value = useMemo(() => ({ openSettings }), [openSettings]);
  return (
    <SettingsContext.Provider value={value}>
      {children}
      {/* Mounted closed as soon as its chunk arrives, after the screen is shown. */}
      <Suspense fallback={null}>
        <SettingsDialog
          open={open}
          tab={tab}
          onTabChange={setTab}
          onClose={() => {
            // Closing returns the modal to its Account tab.
            setOpen(false);
            setTab("account");
          }}
        />
      </Suspense>
    </SettingsContext.Provider>
  );
}

export function useSettings(): SettingsContextValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error("useSettings must be used inside SettingsProvider");
  return value;
}
