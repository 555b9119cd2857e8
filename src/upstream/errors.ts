import { type ApiError, errors } from '../http/errors.js';

export type FailureKind =
  /** No answer within UPSTREAM_TIMEOUT_MS (`phase` says where the call was). */
  | 'timeout'
  /** 503 with a JSON body, or the connection was refused. */
  | 'unavailable'
  /** HTML, malformed JSON, a 5xx other than 503, a reset connection, an unexpected status. */
  | 'bad_response'
  /** The upstream system refused the user's upstream token. */
  | 'token_not_valid';

/**
 * Where a timed-out call was: still `queued` for a connection of its kind (never handed to
 * a connection, so surely not sent), or `waiting for answer` (handed to a connection: it
 * may have been sent and received, and may still be processed).
 */
export type TimeoutPhase = 'queued' | 'waiting for answer';

/** A failed upstream call; the error handler turns it into the answer of docs/http-contract.md. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly route: string,
    readonly status?: number,
    /** The JSON body of an upstream 503, passed through on checkout. */
    readonly body?: unknown,
    cause?: unknown,
    /** Set on a timeout. */
    readonly phase?: TimeoutPhase,
  ) {
    super(
      `upstream ${route}: ${kind}${status ? ` (${status})` : ''}${phase ? ` (${phase})` : ''}`,
      { cause },
    );
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
      phase: this.phase,
      cause: cause?.code ?? cause?.message,
    };
  }
}

/**
 * `POST /orders` answered 201 or 202 (the order is placed) with a whole JSON body whose
 * `order_id` or `order_number` cannot be stored as sent: the ERP's own answer, which a retry
 * under the same key repeats. A body cut or not JSON is a plain `bad_response` (the lines
 * stay frozen until a retry reads it); this one checks the cart out unconfirmed (decision 0001).
 */
export class UnstorableOrderAnswer extends UpstreamFailure {
  constructor(failure: UpstreamFailure) {
    super('bad_response', 'orders', failure.status, undefined, failure.cause);
  }
}
