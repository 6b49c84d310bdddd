import { createFileRoute } from "@tanstack/react-router";
import { validateWeatherSearch, type WeatherSearch } from "../../lib/weather-search";
import { WeatherPage } from "../../pages/app/weather";

export const Route = createFileRoute("/app/weather")({
  staticData: { titleKey: "pages.weather" },
  // Read as it comes, kept out of every page's first download: the screen's chunk cleans it.
  validateSearch: (search: Record<string, unknown>) => search as WeatherSearch,
  component: WeatherRoute,
});

function WeatherRoute() {
  const search = validateWeatherSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  return (
    <WeatherPage
      search={search}
      onSearch={(patch: Partial<WeatherSearch>) =>
        void navigate({
          // A change of the sites' search or filters starts both lists from their first page.
          search: (previous) =>
            validateWeatherSearch({
              ...previous,
              ...("page" in patch || "plants" in patch ? {} : { page: undefined, plants: undefined }),
              ...patch,
            }),
        })
      }
    />
  );
}
