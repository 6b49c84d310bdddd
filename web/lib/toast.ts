import type { ExternalToast, toast as sonnerToast } from "sonner";

type Message = Parameters<typeof sonnerToast.error>[0];

/**
 * sonner's toasts, its code fetched with the first one (app.tsx mounts its Toaster the same way), so
 * no page downloads it before it is shown.
 */
const show =
  (kind: "success" | "error" | "warning") =>
  (message: Message, data?: ExternalToast): void => {
    void import("sonner").then(({ toast }) => {
      toast[kind](message, data);
    });
  };

export const toast = { success: show("success"), error: show("error"), warning: show("warning") };
