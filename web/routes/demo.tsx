import { createFileRoute } from "@tanstack/react-router";
import { DemoPage } from "../pages/public/demo";

export const Route = createFileRoute("/demo")({ component: DemoPage });
