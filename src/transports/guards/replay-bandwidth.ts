import { errors } from '../../model/errors.js';
import type { Guard, OpenedSubscription } from './guard.js';

/**
 * A replay is paid from the visitor's daily bandwidth: when too little is left the
 * subscription is refused (42905) and sends nothing, rather than part of the replay.
 */
export const replayBandwidth: Guard<OpenedSubscription> = ({ gate, opened }) => {
  if (opened.replayBytes > 0 && !gate.visitor.transfer(opened.replayBytes, Date.now())) throw errors.bandwidthLimit;
};
