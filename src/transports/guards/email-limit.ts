import type { Guard, ParsedPublish } from './guard.js';

/** A publish asking for an e-mail takes one from the visitor's e-mail bucket (42902). */
export const emailLimit: Guard<ParsedPublish> = ({ gate, email }) => {
  if (email) gate.visitor.email(Date.now());
};
