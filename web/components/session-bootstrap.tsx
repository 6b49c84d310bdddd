import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { preferencesQueryOptions, profileQueryOptions } from "../lib/queries/user";
import { clearSession, syncStoredUser, useSession } from "../lib/session";

/**
 * Rendered by QueryScope, with the screens that fetch. A restored session re-fetches the profile, and any failure of that fetch ends it.
 * The interface language follows the saved preferences, including while a change is being saved.
 */
export function SessionBootstrap() {
  const { token } = useSession();
  const { i18n } = useTranslation();
  const profile = useQuery({ ...profileQueryOptions(), enabled: token !== null });
  const preferences = useQuery({
    ...preferencesQueryOptions(),
    enabled: token !== null && profile.isSuccess,
  });

  useEffect(() => {
    if (token !== null && profile.isError && profile.data === undefined) clearSession();
  }, [token, profile.isError, profile.data]);

  useEffect(() => {
    if (profile.data) syncStoredUser(profile.data);
  }, [profile.data]);

  const language = token !== null ? preferences.data?.language : undefined;
  useEffect(() => {
    if (language && language !== i18n.language) void i18n.changeLanguage(language);
  }, [language, i18n]);

  return null;
}
