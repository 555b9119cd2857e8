import { Invalid } from '../errors.js';
import type { MonthQuery } from './schemas.js';

const DAY_MS = 86_400_000;
export const WEEK_SECONDS = 7 * 86_400;

export const YEAR_MIN = 1970;
export const YEAR_MAX = 9999;

export interface Month {
  year: number;
  month: number;
  /** Epoch seconds of the month's first instant and of the next month's. */
  start: number;
  end: number;
  /** Epoch seconds of each week's Monday 00:00 UTC; week 0 may begin in the month before. */
  weeks: number[];
}

/** The Monday-started UTC weeks that overlap the month (docs/http-contract.md "Monthly scores"). */
export function monthOf(year: number, month: number): Month {
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month, 1);
  const daysSinceMonday = (new Date(start).getUTCDay() + 6) % 7;
  const weeks: number[] = [];
  for (let monday = start - daysSinceMonday * DAY_MS; monday < end; monday += 7 * DAY_MS) {
    weeks.push(monday / 1000);
  }
  return { year, month, start: start / 1000, end: end / 1000, weeks };
}

function bounded(
  problems: Record<string, string[]>,
  field: string,
  text: string,
  min: number,
  max: number,
): number {
  const value = Number(text);
  if (value < min) problems[field] = [`Ensure this value is greater than or equal to ${min}.`];
  if (value > max) problems[field] = [`Ensure this value is less than or equal to ${max}.`];
  return value;
}

/** `month` 1-12 and `year` 1970-9999 (the schema has already checked they are integers). */
export function parseMonth(query: MonthQuery): Month {
  const problems: Record<string, string[]> = {};
  const month = bounded(problems, 'month', query.month, 1, 12);
  const year = bounded(problems, 'year', query.year, YEAR_MIN, YEAR_MAX);
  if (Object.keys(problems).length > 0) throw new Invalid(problems);
  return monthOf(year, month);
}
