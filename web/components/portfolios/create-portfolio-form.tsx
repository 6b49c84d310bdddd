import { RiAddLine } from "@remixicon/react";
import { Button, Textarea, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorDescription } from "../../lib/error-messages";
import { portfolioInput, useCreatePortfolioMutation } from "../../lib/queries/portfolios";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

/** The name is trimmed and required (the button waits for it); the description is optional. */
export function CreatePortfolioForm({ layout = "wide" }: { layout?: "wide" | "compact" }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useCreatePortfolioMutation();
  const blank = name.trim() === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank) return;
    create.mutate(portfolioInput(name, description), {
      onSuccess: (portfolio) => {
        setName("");
        setDescription("");
        toast.success(t("portfolios.toasts.created"), {
          description: t("portfolios.toasts.createdBody", { name: portfolio.name }),
        });
      },
      onError: (error) =>
        toast.error(t("portfolios.toasts.createFailed"), {
          description: errorDescription(error, t("portfolios.toasts.createFailedDefault")),
        }),
    });
  };

  return (
    <form
      onSubmit={submit}
      aria-label={t("portfolios.create.title")}
      className={layout === "wide" ? "grid gap-4 md:grid-cols-[1fr_2fr_auto] md:items-end" : "space-y-3"}
    >
      <Field label={t("portfolios.create.name")} htmlFor={`${id}-name`}>
        <TextInput
          id={`${id}-name`}
          value={name}
          onValueChange={setName}
          placeholder={t("portfolios.create.namePlaceholder")}
          maxLength={100}
        />
      </Field>
      <Field label={t("portfolios.create.description")} htmlFor={`${id}-description`}>
        {layout === "wide" ? (
          <TextInput
            id={`${id}-description`}
            value={description}
            onValueChange={setDescription}
            placeholder={t("portfolios.create.descriptionPlaceholder")}
            maxLength={500}
          />
        ) : (
          <Textarea
            id={`${id}-description`}
            value={description}
            onValueChange={setDescription}
            placeholder={t("portfolios.create.descriptionPlaceholder")}
            maxLength={500}
            rows={2}
          />
        )}
      </Field>
      <Button type="submit" icon={RiAddLine} disabled={blank} loading={create.isPending}>
        {t("portfolios.create.submit")}
      </Button>
    </form>
  );
}
