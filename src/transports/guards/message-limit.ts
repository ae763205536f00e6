import type { Guard, ParsedPublish } from './guard.js';

/** One of the visitor's messages of the day (42908). */
export const messageLimit: Guard<ParsedPublish> = ({ gate }) => gate.visitor.message(Date.now());
