import type { preValidationHookHandler } from 'fastify';

/**
 * Fastify validates a body schema even when no body was sent, answering 400 "body must be object";
 * a body schema cannot be optional. Routes whose body is optional (confirming a cancellation) add
 * this as `preValidation` (it runs before validation): a missing body is validated as `{}`. An
 * empty body sent as `application/json` is still refused by the JSON parser (400), as everywhere.
 */
export const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  request.body ??= {};
  done();
};
