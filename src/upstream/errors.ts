import { type ApiError, errors } from '../http/errors.js';

export type FailureKind =
  /** No answer within UPSTREAM_TIMEOUT_MS. */
  | 'timeout'
  /** 503 with a JSON body, or the connection was refused. */
  | 'unavailable'
  /** HTML, malformed JSON, a 5xx other than 503, a reset connection, an unexpected status. */
  | 'bad_response'
  /** The upstream system refused the user's upstream token. */
  | 'token_not_valid';

/** A failed upstream call; the error handler turns it into the answer of conventions.md. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly route: string,
    readonly status?: number,
    /** The JSON body of an upstream 503, passed through on checkout. */
    readonly body?: unknown,
    cause?: unknown,
  ) {
    super(`upstream ${route}: ${kind}${status ? ` (${status})` : ''}`, { cause });
  }

  toApiError(): ApiError {
    switch (this.kind) {
      case 'timeout':
        return errors.upstreamTimeout();
      case 'unavailable':
        return errors.upstreamUnavailable();
      case 'token_not_valid':
        return errors.upstreamTokenNotValid();
      default:
        return errors.upstreamError();
    }
  }

  /** For logs: never the token, never the body. */
  describe(): Record<string, unknown> {
    const cause = this.cause as { code?: string; message?: string } | undefined;
    return {
      route: this.route,
      kind: this.kind,
      status: this.status,
      cause: cause?.code ?? cause?.message,
    };
  }
}
