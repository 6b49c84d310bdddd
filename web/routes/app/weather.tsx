import { createFileRoute } from "@tanstack/react-router";
import { WeatherPage } from "../../pages/app/weather";

export const Route = createFileRoute("/app/weather")({
  staticData: { titleKey: "pages.weather" },
  component: WeatherPage,
});
