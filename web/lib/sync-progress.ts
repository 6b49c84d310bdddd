import { useEffect, useRef, useState } from "react";
import type { ProviderId, SyncProgress } from "../../schema/api/providers";
import { subscribeLiveMessages } from "./live";

/**
 * The running sync of one provider as its `sync_progress` messages tell it (null when none is
 * seen going), and `onEnd` once a run this screen saw going ends. Runs whose outcome a request
 * answers itself (`answeredByRequest()` true while they are first seen) are left to that answer.
 */
export function useSyncProgress(
  provider: ProviderId,
  onEnd: (progress: SyncProgress) => void,
  answeredByRequest: () => boolean,
): { progress: SyncProgress | null; forgetRequest: () => void } {
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const seen = useRef(new Map<string, "request" | "background">());
  const handlers = useRef({ onEnd, answeredByRequest });
  handlers.current = { onEnd, answeredByRequest };
  useEffect(
    () =>
      subscribeLiveMessages((message) => {
        if (message.type !== "sync_progress" || message.data.provider !== provider) return;
        const run = message.data;
        if (!seen.current.has(run.runId)) {
          seen.current.set(run.runId, handlers.current.answeredByRequest() ? "request" : "background");
        }
        if (run.status === "running") {
          setProgress(run);
          return;
        }
        setProgress(null);
        if (seen.current.get(run.runId) === "background") handlers.current.onEnd(run);
        seen.current.delete(run.runId);
      }),
    [provider],
  );
  // A request answered 202: the run's end is announced here after all.
  const forgetRequest = () => {
    for (const [runId, origin] of seen.current)
      if (origin === "request") seen.current.set(runId, "background");
  };
  return { progress, forgetRequest };
}
