// Dates and durations as an owner reads them. Pages run no script, so the server does not know the reader's time
// zone: times are written in UTC with the zone named, next to how long ago or how long from now.
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${DATE.format(d)} UTC`;
}

/** "4 minutes", "1 hour", "3 days": the larger unit only, rounded down, at least "less than a minute". */
export function duration(ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (s < 60) return s <= 0 ? 'less than a minute' : unit(s, 'second');
  if (s < 3600) return unit(Math.floor(s / 60), 'minute');
  if (s < 86_400) return unit(Math.floor(s / 3600), 'hour');
  return unit(Math.floor(s / 86_400), 'day');
}

/** "23 Nov 2026, 14:03 UTC (5 minutes ago)". */
export function ago(iso: string, now: Date): string {
  return `${dateTime(iso)} (${duration(now.getTime() - new Date(iso).getTime())} ago)`;
}

/** "4 minutes left" or "expired". */
export function timeLeft(iso: string, now: Date): string {
  const ms = new Date(iso).getTime() - now.getTime();
  return ms > 0 ? `${duration(ms)} left` : 'expired';
}
