import { createFileRoute } from "@tanstack/react-router";
import { AuditLogsPage } from "../../../pages/app/audit-logs";

export const Route = createFileRoute("/app/admin/logs")({
  staticData: { titleKey: "pages.auditLogs" },
  component: AuditLogsPage,
});
