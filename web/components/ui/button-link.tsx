import { createLink, type LinkComponent } from "@tanstack/react-router";
import { type AnchorHTMLAttributes, forwardRef } from "react";
import { type ButtonVariant, buttonClasses } from "./button-styles";

interface StyledAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  variant?: ButtonVariant;
}

const StyledAnchor = forwardRef<HTMLAnchorElement, StyledAnchorProps>(
  ({ variant = "primary", className = "", ...props }, ref) => (
    <a ref={ref} className={buttonClasses(variant, className)} {...props} />
  ),
);
StyledAnchor.displayName = "StyledAnchor";

const CreatedButtonLink = createLink(StyledAnchor);

/** A router link that looks like Tremor's Button (a button inside an anchor is invalid HTML). */
export const ButtonLink: LinkComponent<typeof StyledAnchor> = (props) => <CreatedButtonLink {...props} />;
