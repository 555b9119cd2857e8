import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { FieldErrors } from './errors.js';

/**
 * Turns Ajv errors into DRF-style field errors (`{"quantity": ["..."]}`), the shape the
 * existing clients read. A schema may carry `errorMessage` for pattern/format failures.
 */
export function fieldErrors(validation: FastifySchemaValidationError[]): FieldErrors {
  const out: FieldErrors = {};
  // A value failing a union (`Nullable(x)`, a list of literals) fails every branch; the
  // first branch says what was expected, the others ("Expected null.") only add noise.
  const unionReported = new Set<string>();
  for (const error of validation) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error);
    if (/\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath)) {
      if (unionReported.has(field)) continue;
      unionReported.add(field);
    }
    const message = messageOf(error);
    const list = out[field] ?? [];
    if (!list.includes(message)) list.push(message);
    out[field] = list;
  }
  if (Object.keys(out).length === 0) {
    for (const error of validation) {
      const field = fieldOf(error);
      out[field] = ['Invalid value.'];
    }
  }
  return out;
}

function fieldOf(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  const path = (error.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path.push(params.missingProperty);
  }
  if (path.length === 0) return 'non_field_errors';
  return path.join('.');
}

function messageOf(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  const schema = (error as { parentSchema?: Record<string, unknown> }).parentSchema;
  if (schema && typeof schema.errorMessage === 'string' && error.keyword !== 'required') {
    return schema.errorMessage;
  }
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'type': {
      const data = (error as { data?: unknown }).data;
      if (data === null) return 'This field may not be null.';
      return typeMessage(String(params.type));
    }
    case 'minLength':
      return params.limit === 1
        ? 'This field may not be blank.'
        : `Ensure this field has at least ${params.limit} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${params.limit} characters.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${params.limit}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${params.limit}.`;
    case 'minItems':
      return `Ensure this field has at least ${params.limit} elements.`;
    case 'maxItems':
      return `Ensure this field has no more than ${params.limit} elements.`;
    case 'enum':
    case 'const': {
      const data = (error as { data?: unknown }).data;
      return `"${String(data)}" is not a valid choice.`;
    }
    case 'pattern':
    case 'format':
      return 'Enter a valid value.';
    default:
      return error.message ? `Invalid value: ${error.message}.` : 'Invalid value.';
  }
}

function typeMessage(type: string): string {
  if (type.startsWith('integer')) return 'A valid integer is required.';
  if (type.startsWith('number')) return 'A valid number is required.';
  if (type.startsWith('boolean')) return 'Must be a valid boolean.';
  if (type.startsWith('string')) return 'Not a valid string.';
  if (type.startsWith('array')) return 'Expected a list of items.';
  if (type.startsWith('object')) return 'Invalid data. Expected a dictionary.';
  return `Expected ${type}.`;
}
