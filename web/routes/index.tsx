import { createFileRoute } from "@tanstack/react-router";
import { LandingPage } from "../pages/public/landing";

export const Route = createFileRoute("/")({ component: LandingPage });
