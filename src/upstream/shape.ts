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
  const unusable = (where: string) =>
    new UpstreamFailure(
      'bad_response',
      route,
      200,
      undefined,
      // The path and rule only (for the log): never the value.
      new Error(`answer does not fit the contract: ${where}`),
    );
  return (value: unknown): Static<T> => {
    if (!validator.Check(value)) {
      const [first] = validator.Errors(value);
      throw unusable(`${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`);
    }
    if (options.storable) {
      const where = unstorableText(value, '');
      if (where !== undefined) throw unusable(`${where || '/'} holds text PostgreSQL cannot store`);
    }
    return value as Static<T>;
  };
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
