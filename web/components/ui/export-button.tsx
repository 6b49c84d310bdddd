import { Button } from "@tremor/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { respond } from "../../lib/api";
import { errorDescription } from "../../lib/error-messages";
import { toast } from "../../lib/toast";

/** Downloads a CSV export of `path` (the API adds `format=csv`) under the filename the server names. */
export function ExportButton({ path, label }: { path: string; label?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const response = await respond("GET", `${path}${path.includes("?") ? "&" : "?"}format=csv`);
      // The file under the name its Content-Disposition gives.
      const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = named?.[1] ?? "export.csv";
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      // The server's reason in the reader's language; nothing repeats the title when there is none.
      const description = errorDescription(error, "");
      toast.error(t("common.exportFailed"), description ? { description } : undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="xs" onClick={onClick} loading={busy} disabled={busy}>
      {label ?? t("common.exportCsv")}
    </Button>
  );
}
