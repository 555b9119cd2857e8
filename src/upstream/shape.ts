import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { UpstreamFailure } from './errors.js';

/**
 * A check of an upstream answer against the contract's shape. An answer that does not fit
 * is unusable (502 `upstream_error`): serializing it as is would turn a missing field into
 * a 500 and a wrongly typed one into a silently coerced value.
 */
export function shapeCheck<T extends TSchema>(schema: T, route: string) {
  const validator = Compile(schema);
  return (value: unknown): Static<T> => {
    if (validator.Check(value)) return value as Static<T>;
    const [first] = validator.Errors(value);
    // The path and rule only (for the log): never the value.
    const where = `${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`;
    throw new UpstreamFailure(
      'bad_response',
      route,
      200,
      undefined,
      new Error(`answer does not fit the contract: ${where}`),
    );
  };
}
