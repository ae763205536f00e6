import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../config/load.js';
import { importNtfy } from '../migrate/ntfy/import.js';
import { UnknownSchema } from '../migrate/ntfy/unknown-schema.js';

interface NtfyOptions {
  config?: string;
  cacheFile?: string;
  authFile?: string;
  attachmentCacheDir?: string;
  dryRun?: boolean;
}

/**
 * `tocsin import ntfy`: copies an ntfy server's files into the stores Tocsin's config
 * selects. Progress goes to stderr, the summary to stdout; an unknown schema or a config
 * with nowhere to write ends the process with its message and exit code 1.
 */
export function registerImport(program: Command): void {
  const imports = program.command('import').description('Copy another server\'s data into Tocsin');
  imports
    .command('ntfy')
    .description("Copies an ntfy server's cached messages, users, access entries, tokens, tiers, reservations and attachments; safe to interrupt and run again")
    .option('-c, --config <file>', 'Tocsin\'s server.yml, whose stores are written (env TOCSIN_CONFIG_FILE or NTFY_CONFIG_FILE)')
    .option('--cache-file <file>', "ntfy's cache-file (cache.db)")
    .option('--auth-file <file>', "ntfy's auth-file (user.db)")
    .option('--attachment-cache-dir <dir>', "ntfy's attachment-cache-dir, whose files are copied")
    .option('--dry-run', 'read everything and report what would be written, writing nothing')
    .action(async (options: NtfyOptions) => {
      try {
        if (!options.cacheFile && !options.authFile) throw new ConfigError('nothing to import: give --cache-file and/or --auth-file');
        const file = options.config ?? process.env.TOCSIN_CONFIG_FILE ?? process.env.NTFY_CONFIG_FILE;
        const { config } = loadConfig({ file, env: process.env, flags: {} });
        const summary = await importNtfy({
          config,
          source: { cacheFile: options.cacheFile, authFile: options.authFile, attachmentCacheDir: options.attachmentCacheDir },
          dryRun: options.dryRun === true,
          out: process.stderr,
        });
        const heading = options.dryRun ? 'dry run: nothing written; an import would read and add' : 'imported from ntfy';
        process.stdout.write(`${heading}:\n${summary.lines(options.dryRun === true).map((l) => `  ${l}\n`).join('')}`);
      } catch (err) {
        if (!(err instanceof ConfigError || err instanceof UnknownSchema)) throw err;
        process.stderr.write(`tocsin: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
