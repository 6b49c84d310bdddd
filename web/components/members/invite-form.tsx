import { RiFileCopyLine, RiMailSendLine } from "@remixicon/react";
import { Button, Card, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { INVITE_TTL_DAYS, type InviteCreated } from "../../../schema/api/members";
import { assignableRoles, type Role, roleSchema } from "../../../schema/roles";
import { errorDescription } from "../../lib/error-messages";
import { useInviteUserMutation } from "../../lib/queries/members";
import { toast } from "../../lib/toast";
import { useCurrentProfile } from "../profile-context";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";

export function InviteForm() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const id = useId();
  const roles = assignableRoles(profile.role);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("user");
  const [created, setCreated] = useState<InviteCreated | null>(null);
  const [copied, setCopied] = useState(false);
  const invite = useInviteUserMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (result) => {
          setCreated(result);
          setCopied(false);
          setEmail("");
          toast.success(t("members.toasts.invited"), { description: t("members.toasts.invitedBody") });
        },
        onError: (error) =>
          toast.error(t("members.toasts.inviteFailed"), {
            description: errorDescription(error, t("members.toasts.inviteFailedDefault")),
          }),
      },
    );
  };

  const copyLink = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      toast.error(t("members.invite.copyFailed"));
    }
  };

  return (
    <Card>
      <h3 className="text-tremor-title font-semibold text-tremor-content-strong">
        {t("members.invite.title")}
      </h3>
      <p className="text-tremor-default text-tremor-content">{t("members.invite.description")}</p>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
        <Field label={t("members.invite.email")} htmlFor={`${id}-email`}>
          <TextInput
            id={`${id}-email`}
            type="email"
            required
            value={email}
            onValueChange={setEmail}
            placeholder={t("auth.emailPlaceholder")}
            autoComplete="off"
          />
        </Field>
        <Field label={t("members.invite.role")} htmlFor={`${id}-role`}>
          <NativeSelect
            id={`${id}-role`}
            required
            value={role}
            onChange={(event) => {
              const parsed = roleSchema.safeParse(event.target.value);
              if (parsed.success) setRole(parsed.data);
            }}
          >
            {roles.map((option) => (
              <option key={option} value={option}>
                {t(`roles.${option}`)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button
          type="submit"
          icon={RiMailSendLine}
          loading={invite.isPending}
          loadingText={t("members.invite.sending")}
          disabled={email.trim() === ""}
        >
          {t("members.invite.submit")}
        </Button>
      </form>
      {created ? (
        <div className="mt-4 rounded-tremor-default border border-tremor-brand-muted bg-tremor-brand-faint p-4">
          <label
            htmlFor={`${id}-link`}
            className="block text-tremor-default font-medium text-tremor-content-strong"
          >
            {t("members.invite.linkTitle")}
          </label>
          <p className="text-tremor-label text-tremor-content">
            {t("members.invite.linkHint", { email: created.invite.email, days: INVITE_TTL_DAYS })}
          </p>
          <div className="mt-2 flex gap-2">
            <TextInput
              id={`${id}-link`}
              value={created.inviteLink}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              type="button"
              variant="secondary"
              icon={RiFileCopyLine}
              onClick={() => void copyLink(created.inviteLink)}
            >
              {copied ? t("common.copied") : t("common.copy")}
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
