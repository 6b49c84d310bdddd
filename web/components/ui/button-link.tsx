import { createLink, type LinkComponent } from "@tanstack/react-router";
import { type AnchorHTMLAttributes, forwardRef } from "react";

type Variant = "primary" | "secondary" | "light";

const variantClasses: Record<Variant, string> = {
  primary:
    "border-transparent bg-tremor-brand text-tremor-brand-inverted shadow-tremor-input hover:bg-tremor-brand-emphasis",
  secondary:
    "border-tremor-brand bg-transparent text-tremor-brand-emphasis shadow-tremor-input hover:bg-tremor-brand-faint",
  light: "border-transparent bg-transparent text-tremor-brand-emphasis hover:text-tremor-brand",
};

interface StyledAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  variant?: Variant;
}

const StyledAnchor = forwardRef<HTMLAnchorElement, StyledAnchorProps>(
  ({ variant = "primary", className = "", ...props }, ref) => (
    <a
      ref={ref}
      className={`inline-flex items-center justify-center gap-1.5 rounded-tremor-default border px-4 py-2 text-tremor-default font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-tremor-brand-muted ${variantClasses[variant]} ${className}`}
      {...props}
    />
  ),
);
StyledAnchor.displayName = "StyledAnchor";

const CreatedButtonLink = createLink(StyledAnchor);

/** A router link that looks like Tremor's Button (a button inside an anchor is invalid HTML). */
export const ButtonLink: LinkComponent<typeof StyledAnchor> = (props) => <CreatedButtonLink {...props} />;
