import { describe } from 'node:test';
import type { MessageCache } from '../../src/store/message-cache.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { messageNode } from '../support/mongo-nodes.js';
import type { Open } from './contracts/instances.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/** A node's cache on its own client; a location is the database. */
const mongo: Open<MessageCache> = async (location) => {
  const node = await messageNode(location);
  return { instance: node.cache, location: node.database, close: () => node.close() };
};

describe('MongoDB message cache (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeMessageCache('mongodb', mongo, { shared: true });
});
