import { useQuery } from "@tanstack/react-query";
import { Switch } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { languageSchema, type Preferences } from "../../../schema/api/preferences";
import { type Language, languages } from "../../../schema/domain";
import { preferencesQueryOptions, useUpdatePreferencesMutation } from "../../lib/queries/user";
import { toast } from "../../lib/toast";
import { ErrorState } from "../ui/error-state";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";
import { TimezonePicker } from "./timezone-picker";

type SwitchKey = "monthlyReports" | "weeklyDigest" | "realtimeAlerts";
const switchKeys: SwitchKey[] = ["monthlyReports", "weeklyDigest", "realtimeAlerts"];

/** Language names are written in their own language so a reader can always find theirs. */
const languageNames: Record<Language, string> = { en: "English", es: "Español", fr: "Français" };

export function NotificationsTab() {
  const { t } = useTranslation();
  const preferencesQuery = useQuery(preferencesQueryOptions());
  const mutation = useUpdatePreferencesMutation();

  if (preferencesQuery.isPending) return <Spinner className="py-10" />;
  if (preferencesQuery.isError) {
    return (
      <ErrorState
        title={t("settings.notifications.loadFailed")}
        error={preferencesQuery.error}
        onRetry={() => void preferencesQuery.refetch()}
      />
    );
  }
  const preferences = preferencesQuery.data;

  // The PATCH carries the full object with the changed field. The language follows
  // the cached preferences (see SessionBootstrap), so the interface switches as soon as this runs.
  const save = (change: Partial<Preferences>) => {
    mutation.mutate(
      { ...preferences, ...change },
      {
        onSuccess: () =>
          toast.success(t("settings.notifications.updated"), {
            description: t("settings.notifications.updatedBody"),
          }),
        onError: () =>
          toast.error(t("settings.notifications.failed"), {
            description: t("settings.notifications.failedBody"),
          }),
      },
    );
  };

  return (
    <div className="space-y-6">
      <section className="space-y-4">
        <h3 className="text-tremor-default font-semibold text-tremor-content-strong">
          {t("settings.notifications.emailTitle")}
        </h3>
        {switchKeys.map((key) => (
          <div key={key} className="flex items-start justify-between gap-4">
            <div>
              <label
                htmlFor={`pref-${key}`}
                className="block text-tremor-default font-medium text-tremor-content-strong"
              >
                {t(`settings.notifications.${key}`)}
              </label>
              <p className="text-tremor-label text-tremor-content">
                {t(`settings.notifications.${key}Hint`)}
              </p>
            </div>
            <Switch
              id={`pref-${key}`}
              checked={preferences[key]}
              onChange={(checked) => save({ [key]: checked })}
            />
          </div>
        ))}
      </section>
      <section className="grid gap-6 border-t border-tremor-border pt-6 md:grid-cols-2">
        <TimezonePicker value={preferences.timezone} onChange={(timezone) => save({ timezone })} />
        <Field label={t("settings.notifications.language")} htmlFor="pref-language">
          <NativeSelect
            id="pref-language"
            value={preferences.language}
            onChange={(event) => {
              const parsed = languageSchema.safeParse(event.target.value);
              if (parsed.success) save({ language: parsed.data });
            }}
          >
            {languages.map((language) => (
              <option key={language} value={language} lang={language}>
                {languageNames[language]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </section>
    </div>
  );
}
