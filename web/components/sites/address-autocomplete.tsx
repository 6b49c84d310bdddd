import { RiMapPinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { TextInput } from "@tremor/react";
import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { GeocodeResult } from "../../../schema/api/geocode";
import { AUTOCOMPLETE_MIN_CHARS, geocodeSearchQueryOptions } from "../../lib/queries/geocode";
import { useDebouncedValue } from "./use-debounced-value";

/** Typing pauses this long before a lookup: the geocoder allows one call per second. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 400;

interface AddressAutocompleteProps {
  id: string;
  value: string;
  /** The place picked for the current text, or null while the text is not a picked place. */
  selected: GeocodeResult | null;
  onTextChange: (text: string) => void;
  onSelect: (place: GeocodeResult) => void;
  describedBy?: string;
}

/**
 * Suggestions from GET /api/geocode once 5 or more characters are typed;
 * picking one sets the site's location. A failed lookup only reaches the console (the query cache
 * logs it): the field keeps working and the user can type on.
 */
export function AddressAutocomplete({
  id,
  value,
  selected,
  onTextChange,
  onSelect,
  describedBy,
}: AddressAutocompleteProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = useDebouncedValue(value.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const lookupWanted = selected === null && query.length >= AUTOCOMPLETE_MIN_CHARS;
  const search = useQuery({ ...geocodeSearchQueryOptions(query), enabled: lookupWanted });
  const results = lookupWanted ? (search.data?.results ?? []) : [];
  const listId = `${id}-suggestions`;
  const showList = open && lookupWanted && search.isSuccess;

  const pick = (place: GeocodeResult) => {
    onSelect(place);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!showList || results.length === 0) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((index) => (index + 1) % results.length);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((index) => (index <= 0 ? results.length - 1 : index - 1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      const place = results[active];
      if (place) pick(place);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <TextInput
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList && results.length > 0}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        value={value}
        placeholder={t("createSite.addressPlaceholder")}
        onValueChange={(text: string) => {
          onTextChange(text);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {showList ? (
        results.length > 0 ? (
          <div
            id={listId}
            role="listbox"
            aria-label={t("createSite.suggestions")}
            className="absolute z-20 mt-1 max-h-[15rem] w-full overflow-y-auto rounded-tremor-default border border-tremor-border bg-tremor-background py-1 shadow-tremor-dropdown"
          >
            {results.map((place, index) => (
              <div
                key={`${place.latitude},${place.longitude},${place.formattedAddress}`}
                id={`${listId}-${index}`}
                role="option"
                // Focus stays in the input (aria-activedescendant); options are reached by arrow keys.
                tabIndex={-1}
                aria-selected={index === active}
                // mousedown, not click: the input's blur would close the list before a click lands.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(place);
                }}
                className={`flex cursor-pointer items-start gap-2 px-3 py-2 text-tremor-default text-tremor-content-emphasis hover:bg-tremor-background-subtle ${
                  index === active ? "bg-tremor-background-subtle" : ""
                }`}
              >
                <RiMapPinLine className="mt-0.5 h-4 w-4 shrink-0 text-tremor-content" aria-hidden="true" />
                <span>{place.formattedAddress}</span>
              </div>
            ))}
          </div>
        ) : (
          <p
            id={listId}
            className="absolute z-20 mt-1 w-full rounded-tremor-default border border-tremor-border bg-tremor-background px-3 py-2 text-tremor-label text-tremor-content shadow-tremor-dropdown"
          >
            {t("createSite.noSuggestions")}
          </p>
        )
      ) : null}
    </div>
  );
}
