import { Option, type Command } from 'commander';
import type { Tier } from '../model/account.js';
import { defaultTier, limitValue, tierCodePattern, tierLimits as limits } from '../model/tier-limits.js';
import { adminAction, fail, say, withAuthOptions } from './auth-admin.js';
import { camel } from './flags.js';
import { goDuration, humanSize } from './go-format.js';

/** `tocsin tier add|change|remove|list` (ntfy's cmd/tier.go); Stripe prices are not offered. */
export function registerTier(program: Command): void {
  const tier = withAuthOptions(program.command('tier')).description('Manage/show tiers').usage('[list|add|change|remove] ...');

  withLimitFlags(tier.command('add').alias('a').description('Adds a new tier').argument('[code]'))
    .option('--ignore-exists', 'if the tier already exists, perform no action and exit')
    .action(
      adminAction(async (admin, code: string | undefined, options: Record<string, string | boolean | undefined>) => {
        const valid = validCode(code, 'add');
        const store = await admin.store();
        if (await store.tier(valid)) {
          if (!options.ignoreExists) fail(`tier ${valid} already exists`);
          return say(`tier ${valid} already exists (exited successfully)`);
        }
        const added = withFlags(defaultTier(valid, (options.name as string | undefined) || valid), options as Record<string, string | undefined>);
        await store.putTier(added, false);
        say('tier added');
        say();
        printTier(added);
      }),
    );

  withLimitFlags(tier.command('change').alias('ch').description('Change a tier').argument('[code]')).action(
    adminAction(async (admin, code: string | undefined, options: Record<string, string | undefined>) => {
      const valid = validCode(code, 'change');
      const store = await admin.store();
      const changed = await store.tier(valid);
      if (!changed) fail(`tier ${valid} does not exist`);
      const updated = withFlags({ ...changed, ...(options.name !== undefined && { name: options.name }) }, options);
      await store.putTier(updated, true);
      say('tier updated');
      say();
      printTier(updated);
    }),
  );

  tier
    .command('remove')
    .aliases(['del', 'rm'])
    .description('Removes a tier')
    .argument('[code]')
    .action(
      adminAction(async (admin, code: string | undefined) => {
        const valid = validCode(code, 'del');
        const store = await admin.store();
        if (!(await store.tier(valid))) fail(`tier ${valid} does not exist`);
        await store.removeTier(valid);
        say(`tier ${valid} removed`);
      }),
    );

  tier
    .command('list')
    .aliases(['l', 'ls'])
    .description('Shows a list of tiers')
    .action(
      adminAction(async (admin) => {
        for (const t of await (await admin.store()).tiers()) printTier(t);
      }),
    );
}

/** Flags without defaults here: `change` must tell a given flag from an absent one. */
function withLimitFlags(command: Command): Command {
  command.addOption(new Option('--name <name>', 'tier name'));
  for (const l of limits) command.addOption(new Option(`--${l.flag} <value>`, `${l.doc} (tier add default: ${l.fallback})`));
  return command;
}

/** `tier` with the limits whose flags were given, checked as /v1/tiers checks them. */
function withFlags(tier: Tier, options: Record<string, string | undefined>): Tier {
  const changed = { ...tier };
  for (const l of limits) {
    const value = options[camel(l.flag)];
    if (value !== undefined) changed[l.field] = limitValue(l, value) ?? fail(`invalid value for --${l.flag}: ${JSON.stringify(value)}`);
  }
  return changed;
}

function validCode(code: string | undefined, command: string): string {
  if (!code) fail(`tier code expected, type 'tocsin tier ${command} --help' for help`);
  if (!tierCodePattern.test(code)) fail('tier code must consist only of numbers and letters');
  return code;
}

function printTier(t: Tier): void {
  say(`tier ${t.code}`);
  say(`- Name: ${t.name}`);
  say(`- Message limit: ${t.messageLimit}`);
  say(`- Message expiry duration: ${goDuration(t.messageExpiryDuration)} (${t.messageExpiryDuration} seconds)`);
  say(`- Email limit: ${t.emailLimit}`);
  say(`- Phone call limit: ${t.callLimit}`);
  say(`- Reservation limit: ${t.reservationLimit}`);
  say(`- Attachment file size limit: ${humanSize(t.attachmentFileSizeLimit)}`);
  say(`- Attachment total size limit: ${humanSize(t.attachmentTotalSizeLimit)}`);
  say(`- Attachment expiry duration: ${goDuration(t.attachmentExpiryDuration)} (${t.attachmentExpiryDuration} seconds)`);
  say(`- Attachment daily bandwidth limit: ${humanSize(t.attachmentBandwidthLimit)}`);
}
