import type { FastifyReply } from 'fastify';

/**
 * Sends an answer already written as JSON text, from the route's response schema (Fastify
 * sends a string of a JSON type as it is, without serializing it again).
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
