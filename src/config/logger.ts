import { pino, type Logger } from 'pino';
import type { Config } from './schema.js';

/**
 * pino, as DESIGN.md chose: JSON lines for `log-format: json`, and ntfy-like readable
 * lines for `text` (pino-pretty, synchronous so nothing is lost on exit).
 */
export async function createLogger(config: Pick<Config, 'logLevel' | 'logFormat' | 'logFile'>): Promise<Logger> {
  const destination = pino.destination({ dest: config.logFile || 2, sync: true, mkdir: true });
  if (config.logFormat === 'json') return pino({ level: config.logLevel, base: undefined }, destination);
  const { default: pretty } = await import('pino-pretty');
  const stream = pretty({
    destination: config.logFile || 2,
    sync: true,
    colorize: !config.logFile && process.stderr.isTTY,
    translateTime: 'SYS:yyyy/mm/dd HH:MM:ss',
    ignore: 'pid,hostname',
  });
  return pino({ level: config.logLevel, base: undefined }, stream);
}
