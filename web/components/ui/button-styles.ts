/** Tremor's Button look as classes, for the controls that do without Tremor (links, public pages). */
export type ButtonVariant = "primary" | "secondary" | "light";

const variantClasses: Record<ButtonVariant, string> = {
  primary:
    "border-transparent bg-tremor-brand text-tremor-brand-inverted shadow-tremor-input hover:bg-tremor-brand-emphasis",
  secondary:
    "border-tremor-brand bg-transparent text-tremor-brand-emphasis shadow-tremor-input hover:bg-tremor-brand-faint",
  light: "border-transparent bg-transparent text-tremor-brand-emphasis hover:text-tremor-brand",
};

export function buttonClasses(variant: ButtonVariant, className = ""): string {
  return `inline-flex items-center justify-center gap-1.5 rounded-tremor-default border px-4 py-2 text-tremor-default font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-tremor-brand-muted disabled:cursor-not-allowed disabled:opacity-50 ${variantClasses[variant]} ${className}`;
}
