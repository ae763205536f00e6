import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import webpush from 'web-push';
import { say } from './auth-admin.js';

/** `tocsin webpush keys [--output-file FILE]` (ntfy's cmd/webpush.go): a VAPID key pair, printed as ntfy prints it. */
export function registerWebPush(program: Command): void {
  const command = program.command('webpush').description('Generate keys, in the future manage web push subscriptions').usage('[keys]');
  command
    .command('keys')
    .description('Generate VAPID keys to enable browser background push notifications')
    .option('-f, --output-file <file>', 'write VAPID keys to this file')
    .action((options: { outputFile?: string }) => {
      const { publicKey, privateKey } = webpush.generateVAPIDKeys();
      if (options.outputFile) {
        writeFileSync(options.outputFile, `---\nweb-push-public-key: ${publicKey}\nweb-push-private-key: ${privateKey}\n`, { mode: 0o660 });
        say(`Web Push keys written to ${options.outputFile}.`);
        return;
      }
      say(`Web Push keys generated. Add the following lines to your config file:

web-push-public-key: ${publicKey}
web-push-private-key: ${privateKey}
web-push-file: /var/cache/ntfy/webpush.db # or similar
web-push-email-address: <email address>

See https://ntfy.sh/docs/config/#web-push for details.`);
    });
}
