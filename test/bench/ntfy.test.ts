import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ntfyConfig } from '../../bench/ntfy.js';

describe('bench — ntfy config', () => {
  it('is the documented tuning on disk, with the visitor limits Tocsin gets in the bench', () => {
    const config = parse(ntfyConfig('/tmp/x', 4242)) as Record<string, unknown>;
    assert.deepEqual(config, {
      'base-url': 'http://127.0.0.1:4242',
      'listen-http': '127.0.0.1:4242',
      'cache-file': '/tmp/x/cache.db',
      'cache-batch-size': 25,
      'cache-batch-timeout': '1s',
      'cache-startup-queries': 'pragma journal_mode = WAL;\npragma synchronous = normal;\npragma temp_store = memory;\npragma busy_timeout = 15000;\n',
      'global-topic-limit': 100000,
      'keepalive-interval': '45s',
      'visitor-request-limit-burst': 1000000000,
      'visitor-message-daily-limit': 1000000000,
      'visitor-subscription-limit': 1000000,
      'visitor-attachment-daily-bandwidth-limit': '1024G',
      'log-level': 'warn',
    });
  });
});
