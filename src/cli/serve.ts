import type { Command } from 'commander';
import { ConfigError, loadConfig, type RawValues } from '../config/load.js';
import { createLogger } from '../config/logger.js';
import { settings, type Setting, type SettingKey } from '../config/schema.js';
import { startServer } from '../server.js';
import { camel } from './flags.js';

const keys = Object.keys(settings) as SettingKey[];

/** `tocsin serve`: every setting is also a `--<key>` flag, as in `ntfy serve`. */
export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('Run the server')
    .option('-c, --config <file>', 'server.yml to read (env TOCSIN_CONFIG_FILE or NTFY_CONFIG_FILE)');
  for (const key of keys) {
    const setting: Setting = settings[key];
    serve.option(`--${key} <value>`, `${setting.doc} (default: ${JSON.stringify(setting.default)})`);
  }
  serve.action(async (options: Record<string, string | undefined>) => {
    const flags: RawValues = {};
    for (const key of keys) {
      const value = options[camel(key)];
      if (value !== undefined) flags[key] = value;
    }
    const file = options.config ?? process.env.TOCSIN_CONFIG_FILE ?? process.env.NTFY_CONFIG_FILE;
    await run(file, flags);
  });
}

async function run(file: string | undefined, flags: RawValues): Promise<void> {
  const loaded = await orExit(() => loadConfig({ file, env: process.env, flags }));
  const log = await createLogger(loaded.config);
  for (const warning of loaded.warnings) log.warn(warning);
  const server = await orExit(() => startServer(loaded.config, log));
  const stop = (signal: string): void => {
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Runs `f`; a ConfigError (a bad setting, found while loading or starting) ends the process with its message. */
async function orExit<T>(f: () => T | Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`tocsin: ${err.message}`);
    process.exit(1);
  }
}
