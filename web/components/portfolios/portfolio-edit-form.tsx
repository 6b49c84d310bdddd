import { Button, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Portfolio, UpdatePortfolioInput } from "../../../schema/api/portfolios";
import { errorDescription } from "../../lib/error-messages";
import { useUpdatePortfolioMutation } from "../../lib/queries/portfolios";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

/** Rename a portfolio or change its description (blank clears it). */
export function PortfolioEditForm({ portfolio, onDone }: { portfolio: Portfolio; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(portfolio.name);
  const [description, setDescription] = useState(portfolio.description ?? "");
  const update = useUpdatePortfolioMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdatePortfolioInput = {};
    if (name.trim() !== portfolio.name) changes.name = name.trim();
    if (description.trim() !== (portfolio.description ?? ""))
      changes.description = description.trim() || null;
    if (changes.name === undefined && changes.description === undefined) return onDone();
    update.mutate(
      { portfolioId: portfolio.id, changes },
      {
        onSuccess: () => {
          toast.success(t("portfolios.toasts.updated"), {
            description: t("portfolios.toasts.updatedBody", { name: name.trim() }),
          });
          onDone();
        },
        onError: (error) =>
          toast.error(t("portfolios.toasts.updateFailed"), {
            description: errorDescription(error, t("portfolios.toasts.updateFailedDefault")),
          }),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label={t("portfolios.edit.formLabel", { name: portfolio.name })}
      className="grid gap-3 md:grid-cols-[1fr_2fr_auto] md:items-end"
    >
      <Field label={t("portfolios.create.name")} htmlFor={`${id}-name`}>
        <TextInput id={`${id}-name`} value={name} onValueChange={setName} maxLength={100} placeholder="" />
      </Field>
      <Field label={t("portfolios.create.description")} htmlFor={`${id}-description`}>
        <TextInput
          id={`${id}-description`}
          value={description}
          onValueChange={setDescription}
          maxLength={500}
          placeholder={t("portfolios.create.descriptionPlaceholder")}
        />
      </Field>
      <div className="flex gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" disabled={name.trim() === ""} loading={update.isPending}>
          {t("portfolios.edit.save")}
        </Button>
      </div>
    </form>
  );
}
