import { InvalidInput } from './errors.ts';

/** The refusal of a value outside a fixed list: names the parameter and every accepted value. */
export function acceptedMessage(param: string, value: unknown, accepted: readonly unknown[]): string {
  return `Invalid ${param}: ${String(value)}. Accepted values: ${accepted.join(', ')}`;
}

/** `value` when it is one of `accepted`; InvalidInput naming `param` otherwise. */
export function oneOf<T>(param: string, value: unknown, accepted: readonly T[]): T {
  if (!(accepted as readonly unknown[]).includes(value)) throw new InvalidInput(acceptedMessage(param, value, accepted));
  return value as T;
}
