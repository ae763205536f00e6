/**
 * Tocsin as the benchmark runs it: the real server, started in this process so the
 * harness can ask for its heap over IPC. Settings come as `--key value` arguments.
 */
import { pino } from 'pino';
import { loadConfig, type RawValues } from '../src/config/load.js';
import { startServer } from '../src/server.js';

const flags: RawValues = { 'listen-http': '127.0.0.1:0' };
const args = process.argv.slice(2);
for (let i = 0; i + 1 < args.length; i += 2) flags[(args[i] as string).replace(/^--/, '') as keyof RawValues] = args[i + 1];
const { config } = loadConfig({ flags });
const server = await startServer(config, pino({ level: 'warn' }));
process.send?.({ port: server.port, smtpPort: server.smtpPort });
process.on('message', (msg: string) => {
  if (msg === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage() });
  }
  if (msg === 'stop') void server.close().then(() => process.exit(0));
});
// The harness died (a timeout killed it): nothing will stop this server otherwise.
process.on('disconnect', () => void server.close().then(() => process.exit(1)));
