/**
 * The refusals any layer may throw, whichever surface asked. Each surface answers them once, in its
 * own words (docs/architecture.md, "Errors"): the data API, the dashboard and collect as HTTP
 * statuses (src/http/errors.ts), the tool endpoint as JSON-RPC errors and tool results
 * (src/mcp/errors.ts), the try-on API as its own codes (src/tryon/plugin.ts), the command line as
 * `{error}` (src/cli/run-command.ts). The message is the contract's and reaches the client unchanged.
 */
export type DomainErrorKind = 'invalid_input' | 'access_denied' | 'not_found' | 'conflict' | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    message: string,
    /**
     * What helps a person put the request right (the parameter, the accepted form, the value sent),
     * kept apart from a message the contract fixes word for word; the data API answers it as `detail`.
     */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The message and its detail as one sentence, for the surfaces whose wording no contract fixes (tools, CLI). */
export const fullMessage = (error: DomainError): string => (error.detail ? `${error.message}: ${error.detail}` : error.message);

/** The request's own input is wrong: a bad value, a missing field, a range that ends before it starts. */
export class InvalidInput extends DomainError {
  readonly kind = 'invalid_input';
}

/** The caller may not see or do this. */
export class AccessDenied extends DomainError {
  readonly kind = 'access_denied';
}

export class NotFound extends DomainError {
  readonly kind = 'not_found';
}

/** The request clashes with what is stored (a taken name, a label set before). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

/** A store could not answer and a later try may succeed: it ran over its time limit, or cannot be reached. */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  constructor(
    readonly reason: 'timeout' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}
