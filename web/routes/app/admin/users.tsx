import { createFileRoute } from "@tanstack/react-router";
import { UserManagementPage } from "../../../pages/app/users";

export const Route = createFileRoute("/app/admin/users")({
  staticData: { titleKey: "pages.users" },
  component: UserManagementPage,
});
