import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Invalid } from '../errors.js';
import { MAX_PASSWORD, MIN_PASSWORD } from './schemas.js';

/**
 * Common passwords, refused as new passwords before they reach the ERP (ASVS 5.0 6.2.4).
 * The list is zxcvbn-ts's common-password dictionary (`@zxcvbn-ts/language-common`, MIT,
 * version pinned: its file is read directly): 49,233 passwords of Xato's corpus of 10 million
 * leaked ones, ranked by frequency, lower case. Only the entries the length rule lets through
 * are kept (17,950, about 1.2 MB of heap, read in about 20 ms at start): a shorter or longer
 * one is refused anyway, and the rest of the list is left to the garbage collector.
 *
 * zxcvbn left out of that list what its own pattern matchers catch: repeats (`00000000`,
 * `12121212`, `19841984`) and sequences (`abcdefgh`, `87654321`), common as they are. They are
 * refused here by their pattern (NIST SP 800-63B's "repetitive or sequential characters").
 */
const LIST = '@zxcvbn-ts/language-common/src/passwords.json';

/** The top 3,000 of the list at the least, or the service does not start. */
const MIN_LIST_SIZE = 3000;

function load(): ReadonlySet<string> {
  const path = createRequire(import.meta.url).resolve(LIST);
  const list: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (
    !Array.isArray(list) ||
    list.length < MIN_LIST_SIZE ||
    !list.every((entry) => typeof entry === 'string')
  ) {
    throw new Error(`${LIST}: not a list of at least ${MIN_LIST_SIZE} passwords`);
  }
  const kept = new Set<string>();
  for (const entry of list as string[]) {
    const length = [...entry].length;
    if (length >= MIN_PASSWORD && length <= MAX_PASSWORD) kept.add(entry.toLowerCase());
  }
  return kept;
}

const COMMON: ReadonlySet<string> = load();

/** How many passwords are refused (docs/security.md gives the figure). */
export const COMMON_PASSWORD_COUNT = COMMON.size;

export const TOO_COMMON = 'This password is too common.';

/** A unit of up to 6 characters repeated over the whole password: `aaaaaaaa`, `qwertyqwerty`. */
const REPEATED = /^(.{1,6}?)\1+$/su;

/** Each character one code point after the one before (`abcdefgh`), or each one before. */
function isSequence(password: string): boolean {
  const points = [...password].map((char) => char.codePointAt(0)!);
  const step = points[1]! - points[0]!;
  if (step !== 1 && step !== -1) return false;
  return points.every((point, i) => i === 0 || point - points[i - 1]! === step);
}

/**
 * Case does not make a listed password safe: `Password1` is `password1` with the shift key.
 * Only the comparison folds case; the password itself is passed on as received.
 */
export function isCommonPassword(password: string): boolean {
  const folded = password.toLowerCase();
  return COMMON.has(folded) || REPEATED.test(folded) || isSequence(folded);
}

/** Invalid on `field` when the new password is a common one. */
export function refuseCommonPassword(field: string, password: string): void {
  if (isCommonPassword(password)) throw Invalid.field(field, TOO_COMMON);
}
