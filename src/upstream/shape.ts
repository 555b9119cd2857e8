import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { UpstreamFailure } from './errors.js';

/**
 * A check of an upstream answer against the contract's shape. An answer that does not fit
 * is unusable (502 `upstream_error`): serializing it as is would turn a missing field into
 * a 500 and a wrongly typed one into a silently coerced value. `storable`: every string in
 * the answer must also be one PostgreSQL stores as sent (no NUL, no unpaired surrogate).
 */
export function shapeCheck<T extends TSchema>(
  schema: T,
  route: string,
  options: { storable?: boolean } = {},
) {
  const validator = Compile(schema);
  const unusable = (where: string, status: number) =>
    new UpstreamFailure(
      'bad_response',
      route,
      status,
      undefined,
      // The path and rule only (for the log): never the value.
      new Error(`answer does not fit the contract: ${where}`),
    );
  /** `status`: upstream's, kept in the failure (a 201 that does not fit still placed an order). */
  return (value: unknown, status = 200): Static<T> => {
    if (!validator.Check(value)) {
      // Errors walks the whole value, keeping a context per node (about 38 MB of heap for an
      // array of 100,000 empty objects, more than the heap has for a 1 MiB answer): a larger
      // answer is refused without locating its first error.
      if (valuesOver(value, ERRORS_UP_TO)) {
        throw unusable(`/ more than ${ERRORS_UP_TO} values, the first error not located`, status);
      }
      const [first] = validator.Errors(value);
      throw unusable(`${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`, status);
    }
    if (options.storable) {
      const where = unstorableText(value, '');
      if (where !== undefined) {
        throw unusable(`${where || '/'} holds text PostgreSQL cannot store`, status);
      }
    }
    return value as Static<T>;
  };
}

/** Largest answer, in values, whose first error is located for the log. */
const ERRORS_UP_TO = 10_000;

/** Whether `value` holds more than `limit` values (itself, its items and members, deep). */
function valuesOver(value: unknown, limit: number): boolean {
  let left = limit;
  const count = (item: unknown): boolean => {
    if (--left < 0) return true;
    if (item === null || typeof item !== 'object') return false;
    for (const member of Array.isArray(item) ? item : Object.values(item)) {
      if (count(member)) return true;
    }
    return false;
  };
  return count(value);
}

/** The path of the first string with NUL or an unpaired surrogate, or undefined. */
function unstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\0') || !value.isWellFormed() ? path : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableText(value[i], `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = unstorableText(key, `${path}/${key}`) ?? unstorableText(item, `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
