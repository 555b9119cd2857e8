/** Largest duration the integer column holds. */
const MAX_SECONDS = 2_147_483_647;

/** `HH:MM:SS` or `HH:MM` (hours may exceed 23) → seconds; null when invalid. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+):([0-5]\d)(?::([0-5]\d))?$/.exec(text);
  if (!m) return null;
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  return seconds <= MAX_SECONDS ? seconds : null;
}

/** Seconds → `HH:MM:SS` with at least two hour digits (`100:00:00` past 99 hours). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(total / 3600);
  return `${pad(hours)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
