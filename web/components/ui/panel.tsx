import type { HTMLAttributes } from "react";

/**
 * Tremor's Card look on a plain element. The pages shown before sign-in use it so they download no
 * Tremor code (their JavaScript budget); the app's screens use Tremor's Card.
 */
export function Panel({ className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={`relative w-full rounded-tremor-default bg-tremor-background p-6 text-left shadow-tremor-card ring-1 ring-tremor-ring ${className}`}
      {...props}
    />
  );
}
