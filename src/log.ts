import type { Config } from './config.js';

/**
 * How log lines are written: JSON lines (production, and whenever stdout is a pipe or a
 * file), or readable lines (pino-pretty) for a person at a terminal during development.
 * LOG_FORMAT forces either.
 */
export function logFormat(
  config: Pick<Config, 'logFormat' | 'production'>,
  stdoutIsTty = process.stdout.isTTY === true,
): 'json' | 'pretty' {
  if (config.logFormat) return config.logFormat;
  return stdoutIsTty && !config.production ? 'pretty' : 'json';
}

/**
 * The stream pretty lines go to, or undefined for pino's own JSON lines on stdout.
 * pino-pretty is loaded only then: production never loads it.
 */
export async function logStream(
  config: Pick<Config, 'logFormat' | 'production'>,
): Promise<NodeJS.WritableStream | undefined> {
  if (logFormat(config) === 'json') return undefined;
  const { default: pretty } = await import('pino-pretty');
  // In-process and synchronous: lines come out in order and none is lost at exit.
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
