import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';

/** A line as the logger wrote it: the fields tests read, and any others. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger (info and up) whose lines the test reads (as `Line`s: the shape it expects). */
export function capturingLog<Line = LogLine>(): { log: FastifyBaseLogger; lines: Line[] } {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}
