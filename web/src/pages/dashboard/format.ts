const ONE_DECIMAL = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** A number with at most one decimal, or a dash when there is none. */
export const figure = (value: number | null | undefined) => (value == null ? '—' : ONE_DECIMAL.format(value));

export const percent = (value: number | null | undefined) => (value == null ? '—' : `${ONE_DECIMAL.format(value)}%`);

/** A duration in the unit that reads best: minutes under an hour, hours under two days, else days. */
export function duration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  if (seconds < 3600) return `${ONE_DECIMAL.format(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${ONE_DECIMAL.format(seconds / 3600)} h`;
  return `${ONE_DECIMAL.format(seconds / 86_400)} d`;
}

/** Hours with one decimal, for chart values (null stays a gap). */
export const hours = (seconds: number | null | undefined) => (seconds == null ? null : Math.round(seconds / 360) / 10);

/** A UTC day as "12 Mar 2026". */
export const day = (iso: string) =>
  new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
