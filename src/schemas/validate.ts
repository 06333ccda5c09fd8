// Compiles schemas once and turns the first validation failure into a 400 naming the field.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Kind, type TSchema, type Static } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { AppError } from '../errors';

/** A compiled validator: returns the typed value or throws AppError INVALID_REQUEST naming the field. */
export type Validator<T extends TSchema> = (value: unknown, prefix?: string) => Static<T>;

/**
 * Compiles `schema` once, at the first validation (start-up compiles none: every route's schema compiled at start
 * cost the daemon tens of ms before its first answer); the returned function validates a parsed JSON value against it.
 */
export function compileValidator<T extends TSchema>(schema: T): Validator<T> {
  let compiled: TypeCheck<T> | undefined;
  return (value: unknown, prefix = '') => {
    const check = (compiled ??= TypeCompiler.Compile(schema));
    if (check.Check(value)) return value;
    const first = check.Errors(value).First();
    throw new AppError('INVALID_REQUEST', first ? describeError(first, prefix) : 'request body is invalid');
  };
}

/** Dotted field name for a JSON pointer path (`/options/copies` → `options.copies`). */
export function fieldName(path: string, prefix = ''): string {
  const dotted = path
    .split('/')
    .filter((part) => part.length > 0)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : part))
    .join('.')
    .replace(/\.\[/g, '[');
  if (!dotted) return prefix || 'body';
  return prefix ? `${prefix}.${dotted}` : dotted;
}

function describeError(error: ValueError, prefix: string): string {
  const field = fieldName(error.path, prefix);
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${field} is required`;
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return `${field} is not an allowed field`;
  return `${field} must be ${describeSchema(error.schema)}`;
}

/** Plain-words expectation of a schema, e.g. "an integer >= 1" or "one of a, b". */
export function describeSchema(schema: TSchema): string {
  switch (schema[Kind]) {
    case 'Integer':
    case 'Number':
      return describeNumber(schema);
    case 'String':
      return describeString(schema);
    case 'Boolean':
      return 'a boolean';
    case 'Null':
      return 'null';
    case 'Array':
      return describeArray(schema);
    case 'Object':
    case 'Record':
      return 'an object';
    case 'Literal':
      return `"${String(schema.const)}"`;
    case 'Union':
      return describeUnion(schema);
    case 'Tuple':
      return `an array of ${schema.maxItems ?? ''} items`.replace('  ', ' ');
    default:
      return 'a valid value';
  }
}

function describeNumber(schema: TSchema): string {
  const base = schema[Kind] === 'Integer' ? 'an integer' : 'a number';
  const bounds: string[] = [];
  if (schema.minimum !== undefined) bounds.push(`>= ${schema.minimum}`);
  if (schema.maximum !== undefined) bounds.push(`<= ${schema.maximum}`);
  return [base, bounds.join(' and ')].filter(Boolean).join(' ');
}

function describeString(schema: TSchema): string {
  if (schema.pattern !== undefined) return typeof schema.description === 'string' ? schema.description : 'a string in the expected format';
  const parts: string[] = [];
  if (schema.minLength !== undefined && schema.minLength > 0) parts.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  return parts.length ? `a string of ${parts.join(' and ')}` : 'a string';
}

function describeArray(schema: TSchema): string {
  const of = schema.items ? ` of ${plural(describeSchema(schema.items))}` : '';
  const max = schema.maxItems !== undefined ? ` (at most ${schema.maxItems})` : '';
  return `an array${of}${max}`;
}

function describeUnion(schema: TSchema): string {
  const members = (schema.anyOf ?? []) as TSchema[];
  if (members.every((m) => m[Kind] === 'Literal')) return `one of ${members.map((m) => String(m.const)).join(', ')}`;
  return members.map(describeSchema).join(' or ');
}

function plural(description: string): string {
  return description.replace(/^an? /, '').replace(/^(integer|number|string|boolean|object)/, '$1s');
}
