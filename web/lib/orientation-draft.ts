import { useState } from "react";

/** A stored number as a form field's text ("" for none). */
export const fieldText = (value: number | null) => (value === null ? "" : String(value));
/** A blank field clears the value (null: the default applies); the server parses and range-checks the rest. */
export const blankAsNull = (value: string) => (value.trim() ? value.trim() : null);

interface Orientation {
  tiltDeg: number | null;
  azimuthDeg: number | null;
  acLimitKw: number | null;
}

/**
 * The tilt, azimuth and AC limit fields of a site's or a system's edit form, and the changed ones
 * to send (only those, so the audit log names what was edited).
 */
export function useOrientationDraft(stored: Orientation) {
  const [initial] = useState(() => ({
    tiltDeg: fieldText(stored.tiltDeg),
    azimuthDeg: fieldText(stored.azimuthDeg),
    acLimitKw: fieldText(stored.acLimitKw),
  }));
  const [tiltDeg, setTiltDeg] = useState(initial.tiltDeg);
  const [azimuthDeg, setAzimuthDeg] = useState(initial.azimuthDeg);
  const [acLimitKw, setAcLimitKw] = useState(initial.acLimitKw);
  const changes = () => {
    const changed: { tiltDeg?: string | null; azimuthDeg?: string | null; acLimitKw?: string | null } = {};
    if (tiltDeg !== initial.tiltDeg) changed.tiltDeg = blankAsNull(tiltDeg);
    if (azimuthDeg !== initial.azimuthDeg) changed.azimuthDeg = blankAsNull(azimuthDeg);
    if (acLimitKw !== initial.acLimitKw) changed.acLimitKw = blankAsNull(acLimitKw);
    return changed;
  };
  return { tiltDeg, setTiltDeg, azimuthDeg, setAzimuthDeg, acLimitKw, setAcLimitKw, changes };
}
