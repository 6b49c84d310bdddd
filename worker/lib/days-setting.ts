/**
 * A number of days from an environment variable: the value when it is a positive number, else
 * the fallback (unset, blank or not a number).
 */
export function daysSetting(value: string | undefined, fallbackDays: number): number {
  const days = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(days) && days > 0
    ? days
    : fallbackDays;
}
