import { errors } from '../../model/errors.js';
import { userKeyPrefix, type Visitor } from '../../visitors/visitors.js';
import { visitorOf } from '../client.js';
import type { ServerContext } from '../context.js';
import type { RequestInfo } from '../http/request.js';
import type { Download, Guard } from './guard.js';

/**
 * The bytes a download sends are paid from the uploader's daily bandwidth (42905), as
 * ntfy: one uploader cannot lend a file to a thousand downloaders for free.
 */
export const downloadBandwidth: Guard<Download> = ({ gate, owner, bytes }) => {
  if (bytes === 0) return;
  return uploader(gate.ctx, gate.req, owner).then((visitor) => {
    if (!visitor.transfer(bytes, Date.now())) throw errors.bandwidthLimit;
  });
};

/**
 * The visitor a download is billed to (ntfy's handleFile): an address owner's own visitor;
 * for a user's file, the user's visitor — their tier's wherever they are, or without a
 * tier the downloader's address with the user (ntfy's `s.visitor(v.IP(), u)`); the
 * downloader when the user is gone.
 */
async function uploader(ctx: ServerContext, req: RequestInfo, owner: string): Promise<Visitor> {
  if (!owner.startsWith(userKeyPrefix)) return ctx.visitors.owner(owner, undefined);
  const user = await ctx.access?.store.user(owner.slice(userKeyPrefix.length));
  return visitorOf(ctx, req, user);
}
