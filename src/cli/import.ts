import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { NotImportable } from '../migrate/not-importable.js';
import { importNtfy } from '../migrate/ntfy/import.js';
import type { Summary } from '../migrate/summary.js';
import { importTocsin } from '../migrate/tocsin/import.js';

interface SourceOptions {
  config?: string;
  cacheFile?: string;
  authFile?: string;
  webPushFile?: string;
  attachmentCacheDir?: string;
  dryRun?: boolean;
}

/**
 * `tocsin import ntfy` and `tocsin import tocsin`: copy another server's files into the
 * stores Tocsin's config selects. Progress goes to stderr, the summary to stdout; a source
 * that is not what its flag names, or a config with nowhere to write, ends the process
 * with its message and exit code 1.
 */
export function registerImport(program: Command): void {
  const imports = program.command('import').description('Copy another server\'s data into Tocsin');
  const configOption = ['-c, --config <file>', 'Tocsin\'s server.yml, whose stores are written (env TOCSIN_CONFIG_FILE or NTFY_CONFIG_FILE)'] as const;
  const dryRunOption = ['--dry-run', 'read everything and report what would be written, writing nothing'] as const;
  imports
    .command('ntfy')
    .description("Copies an ntfy server's cached messages, users, access entries, tokens, tiers, reservations and attachments; safe to interrupt and run again")
    .option(...configOption)
    .option('--cache-file <file>', "ntfy's cache-file (cache.db)")
    .option('--auth-file <file>', "ntfy's auth-file (user.db)")
    .option('--attachment-cache-dir <dir>', "ntfy's attachment-cache-dir, whose files are copied")
    .option(...dryRunOption)
    .action((o: SourceOptions) => run(o, 'imported from ntfy', (config) => {
      if (!o.cacheFile && !o.authFile) throw new ConfigError('nothing to import: give --cache-file and/or --auth-file');
      return importNtfy({ config, source: { cacheFile: o.cacheFile, authFile: o.authFile, attachmentCacheDir: o.attachmentCacheDir }, dryRun: o.dryRun === true, out: process.stderr });
    }));
  imports
    .command('tocsin')
    .description("Copies a Tocsin's embedded files (messages, users, access entries, tokens, tiers, reservations, phone numbers, Web Push subscriptions, attachments) into the stores the config selects, e.g. PostgreSQL or MongoDB after setting database-url; safe to interrupt and run again")
    .option(...configOption)
    .option('--cache-file <file>', 'the cache-file the embedded Tocsin used')
    .option('--auth-file <file>', 'the auth-file it used')
    .option('--web-push-file <file>', 'the web-push-file it used')
    .option('--attachment-cache-dir <dir>', 'the attachment-cache-dir it used, whose files are copied (with --cache-file)')
    .option(...dryRunOption)
    .action((o: SourceOptions) => run(o, 'imported from the embedded files', (config) => {
      if (!o.cacheFile && !o.authFile && !o.webPushFile) throw new ConfigError('nothing to import: give --cache-file, --auth-file and/or --web-push-file');
      const source = { cacheFile: o.cacheFile, authFile: o.authFile, webPushFile: o.webPushFile, attachmentCacheDir: o.attachmentCacheDir };
      return importTocsin({ config, source, dryRun: o.dryRun === true, out: process.stderr });
    }));
}

/** Loads the config, runs the import and prints its summary, or the refusal with exit code 1. */
async function run(o: SourceOptions, heading: string, importInto: (config: Config) => Promise<Summary>): Promise<void> {
  try {
    const file = o.config ?? process.env.TOCSIN_CONFIG_FILE ?? process.env.NTFY_CONFIG_FILE;
    const { config } = loadConfig({ file, env: process.env, flags: {} });
    const summary = await importInto(config);
    const title = o.dryRun ? 'dry run: nothing written; an import would read and add' : heading;
    process.stdout.write(`${title}:\n${summary.lines(o.dryRun === true).map((l) => `  ${l}\n`).join('')}`);
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof NotImportable)) throw err;
    process.stderr.write(`tocsin: ${err.message}\n`);
    process.exitCode = 1;
  }
}
