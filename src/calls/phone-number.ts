/** ntfy's phoneNumberRegex: a plus and the digits of the number, country code first. */
export const phoneNumberPattern = /^\+\d{1,100}$/;
