/**
 * The domain's own errors: logic throws these, knowing nothing of HTTP; src/http/conventions.ts
 * maps each to its status and body in one place (docs/http-contract.md).
 */
export class DomainError extends Error {}

/**
 * No such object, or one the caller may not see (never told apart). A route that takes the
 * object's id in its body declares `config.references: { <what>: '<field>' }`, and the
 * error then answers 400 on that field with `reference` as its message; otherwise 404.
 */
export class NotFound extends DomainError {
  constructor(
    readonly what = 'object',
    readonly reference = 'Object does not exist.',
  ) {
    super(`${what} not found`);
  }
}

/** Input the rules refuse: messages by field (`non_field_errors` for the rest). */
export class Invalid extends DomainError {
  constructor(readonly fields: Record<string, string[]>) {
    super(Object.values(fields).flat().join(' '));
  }

  static field(field: string, message: string): Invalid {
    return new Invalid({ [field]: [message] });
  }

  static nonField(message: string): Invalid {
    return new Invalid({ non_field_errors: [message] });
  }
}

/** A checked-out cart: its lines can no longer change. */
export class CartClosed extends Invalid {
  constructor() {
    super({ cart: ['Items cannot be changed in a checked-out cart.'] });
  }
}

/** A checkout of the cart is in flight (or its outcome is unknown): retry for the record. */
export class CheckoutInProgress extends DomainError {
  constructor() {
    super('checkout in progress');
  }
}

/** An `Idempotency-Key` the user already sent with another request (operation or body). */
export class IdempotencyKeyReused extends DomainError {
  constructor() {
    super('idempotency key reused');
  }
}
