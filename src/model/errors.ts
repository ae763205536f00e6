/**
 * The registry of ntfy's error codes: every client-visible failure is one row here,
 * answered as `{"code":40009,"http":400,"error":"...","link":"..."}` exactly as ntfy does
 * (server/errors.go), so clients that branch on `code` keep working.
 */
export class HttpError extends Error {
  constructor(
    readonly code: number,
    readonly http: number,
    readonly error: string,
    readonly link = '',
  ) {
    super(error);
  }

  /** A copy with detail appended, as ntfy's `Wrap` does: "invalid request: actions invalid; only 3 actions allowed". */
  wrap(detail: string): HttpError {
    return new HttpError(this.code, this.http, `${this.error}; ${detail}`, this.link);
  }

  toJSON(): { code: number; http: number; error: string; link?: string } {
    return this.link
      ? { code: this.code, http: this.http, error: this.error, link: this.link }
      : { code: this.code, http: this.http, error: this.error };
  }
}

const docs = 'https://ntfy.sh/docs';
const row = (code: number, http: number, error: string, link = ''): HttpError => new HttpError(code, http, error, link);

export const errors = {
  badRequest: row(40000, 400, 'invalid request'),
  emailDisabled: row(40001, 400, 'e-mail notifications are not enabled', `${docs}/config/#e-mail-notifications`),
  delayNoCache: row(40002, 400, 'cannot disable cache for delayed message'),
  delayNoEmail: row(40003, 400, 'delayed e-mail notifications are not supported'),
  delayCannotParse: row(40004, 400, 'invalid delay parameter: unable to parse delay', `${docs}/publish/#scheduled-delivery`),
  delayTooSmall: row(40005, 400, 'invalid delay parameter: too small, please refer to the docs', `${docs}/publish/#scheduled-delivery`),
  delayTooLarge: row(40006, 400, 'invalid delay parameter: too large, please refer to the docs', `${docs}/publish/#scheduled-delivery`),
  priorityInvalid: row(40007, 400, 'invalid priority parameter', `${docs}/publish/#message-priority`),
  sinceInvalid: row(40008, 400, 'invalid since parameter', `${docs}/subscribe/api/#fetch-cached-messages`),
  topicInvalid: row(40009, 400, 'invalid request: topic invalid'),
  topicDisallowed: row(40010, 400, 'invalid request: topic name is not allowed'),
  messageNotUtf8: row(40011, 400, 'invalid request: message must be UTF-8 encoded'),
  attachmentUrlInvalid: row(40013, 400, 'invalid request: attachment URL is invalid', `${docs}/publish/#attachments`),
  attachmentsDisallowed: row(40014, 400, 'invalid request: attachments not allowed', `${docs}/config/#attachments`),
  attachmentExpiryBeforeDelivery: row(40015, 400, 'invalid request: attachment expiry before delayed delivery date', `${docs}/publish/#scheduled-delivery`),
  webSocketUpgradeMissing: row(40016, 400, 'invalid request: client not using the websocket protocol', `${docs}/subscribe/api/#websockets`),
  messageJsonInvalid: row(40017, 400, 'invalid request: request body must be message JSON', `${docs}/publish/#publish-as-json`),
  actionsInvalid: row(40018, 400, 'invalid request: actions invalid', `${docs}/publish/#action-buttons`),
  matrixMessageInvalid: row(40019, 400, 'invalid request: Matrix JSON invalid', `${docs}/publish/#matrix-gateway`),
  iconUrlInvalid: row(40021, 400, 'invalid request: icon URL is invalid', `${docs}/publish/#icons`),
  signupNotEnabled: row(40022, 400, 'invalid request: signup not enabled', `${docs}/config`),
  noTokenProvided: row(40023, 400, 'invalid request: no token provided'),
  jsonInvalid: row(40024, 400, 'invalid request: request body must be valid JSON'),
  permissionInvalid: row(40025, 400, 'invalid request: incorrect permission string'),
  incorrectPasswordConfirmation: row(40026, 400, 'invalid request: password confirmation is not correct'),
  tierInvalid: row(40030, 400, 'invalid request: tier does not exist'),
  userNotFound: row(40031, 400, 'invalid request: user does not exist'),
  phoneCallsDisabled: row(40032, 400, 'invalid request: calling is disabled', `${docs}/config/#phone-calls`),
  phoneNumberInvalid: row(40033, 400, 'invalid request: phone number invalid', `${docs}/publish/#phone-calls`),
  webPushSubscriptionInvalid: row(40038, 400, 'invalid request: web push payload malformed'),
  webPushEndpointUnknown: row(40039, 400, 'invalid request: web push endpoint unknown'),
  webPushTopicCountTooHigh: row(40040, 400, 'invalid request: too many web push topic subscriptions'),
  phoneNumberNotVerified: row(40034, 400, 'invalid request: phone number not verified, or no matching verified numbers found', `${docs}/publish/#phone-calls`),
  anonymousCallsNotAllowed: row(40035, 400, 'invalid request: anonymous phone calls are not allowed', `${docs}/publish/#phone-calls`),
  phoneVerifyChannelInvalid: row(40036, 400, "invalid request: verification channel must be 'sms' or 'call'", `${docs}/publish/#phone-calls`),
  delayNoCall: row(40037, 400, 'invalid request: delayed call notifications are not supported'),
  templateResultTooLarge: row(40041, 400, 'invalid request: message or title is too large after replacing template', `${docs}/publish/#message-templating`),
  templateNotJson: row(40042, 400, 'invalid request: message body must be JSON if templating is enabled', `${docs}/publish/#message-templating`),
  templateInvalid: row(40043, 400, 'invalid request: could not parse template', `${docs}/publish/#message-templating`),
  templateDisallowed: row(40044, 400, 'invalid request: template contains disallowed function calls, e.g. template, call, or define', `${docs}/publish/#message-templating`),
  templateExecuteFailed: row(40045, 400, 'invalid request: template execution failed', `${docs}/publish/#message-templating`),
  templateExecuteTimeout: row(40055, 400, 'invalid request: template execution timed out', `${docs}/publish/#message-templating`),
  templateFileNotFound: row(40047, 400, 'invalid request: template file not found', `${docs}/publish/#message-templating`),
  templateFileInvalid: row(40048, 400, 'invalid request: template file invalid', `${docs}/publish/#message-templating`),
  templateTooLarge: row(40056, 400, 'invalid request: template too large', `${docs}/publish/#message-templating`),
  titleTooLarge: row(40057, 400, 'invalid request: title too large', `${docs}/publish/#limitations`),
  tagsTooLarge: row(40058, 400, 'invalid request: tags too large', `${docs}/publish/#limitations`),
  usernameInvalid: row(40046, 400, 'invalid request: invalid username'),
  sequenceIdInvalid: row(40049, 400, 'invalid request: sequence ID invalid'),
  emailAddressInvalid: row(40050, 400, 'invalid request: invalid e-mail address', `${docs}/publish/#e-mail-notifications`),
  emailVerificationLinkInvalid: row(40051, 400, 'invalid request: email verification link invalid or expired'),
  emailAddressNotVerified: row(40052, 400, 'invalid request: email address not verified', `${docs}/publish/#e-mail-notifications`),
  anonymousEmailNotAllowed: row(40053, 400, 'invalid request: anonymous email sending is not allowed', `${docs}/publish/#e-mail-notifications`),
  resetLinkInvalid: row(40054, 400, 'invalid request: password reset link invalid or expired'),
  // Heartbeat monitors (ntfy's server_monitor.go, after 2.28): its codes; the messages are Tocsin's.
  monitorBodyInvalid: row(40060, 400, 'invalid request: monitor body must be JSON with key, period, grace and alert_topic'),
  monitorKeyInvalid: row(40061, 400, 'invalid request: monitor key invalid (1-64 of A-Z, a-z, 0-9, - and _)'),
  monitorPeriodInvalid: row(40062, 400, 'invalid request: monitor period must be 30 to 86400 seconds'),
  monitorGraceInvalid: row(40063, 400, 'invalid request: monitor grace must be 10 to 86400 seconds'),
  monitorAlertTopicInvalid: row(40064, 400, 'invalid request: monitor alert topic invalid'),
  monitorAlertPriorityInvalid: row(40065, 400, 'invalid request: monitor alert priority must be 1 to 5'),
  monitorsDisabled: row(40066, 400, 'invalid request: monitors are not enabled'),
  // Tocsin's own (issue 38; ntfy has no groups): the admin API's named groups.
  groupInvalid: row(40067, 400, 'invalid request: group name invalid'),
  groupNotFound: row(40068, 400, 'invalid request: group or membership does not exist'),
  // Tocsin's own (issue 38): an OpenID Connect sign-on that came back unknown, expired, refused or unverified.
  signOnRefused: row(40080, 400, 'invalid request: single sign-on failed, start it again'),
  // Tocsin's own (ntfy has no such limit): past subscription-topic-limit distinct topics.
  // Tocsin's own (issue 37): the path's message id of an acknowledgement or a receipt.
  messageIdInvalid: row(40091, 400, 'invalid request: message ID invalid'),
  tooManyTopicsInSubscription: row(40090, 400, 'invalid request: too many topics in one subscription', `${docs}/subscribe/api/#subscribe-to-multiple-topics`),
  // Tocsin's own (ntfy stores any click): a javascript: or data: link would run in the web app (issue 33).
  clickUrlInvalid: row(40092, 400, 'invalid request: click URL is invalid', `${docs}/publish/#click-action`),
  // Tocsin's own (ntfy's tokens have no scopes): an empty list, or more scopes than a token may carry.
  tokenScopesInvalid: row(40093, 400, 'invalid request: token scopes must list 1 to 16 topics'),
  // Tocsin's own (issue 37): ntfy has no per-message TTL.
  ttlInvalid: row(40094, 400, 'invalid request: TTL invalid, must be a duration greater than 0 like 30m, 12h or 3d', `${docs}/publish/#message-caching`),
  // Tocsin's own (issue 37): alerts repeated until acknowledged; ntfy has none.
  repeatInvalid: row(40095, 400, 'invalid request: Repeat invalid, must be a duration like 5m, at least repeat-min-interval', `${docs}/publish/#repeated-alerts`),
  repeatUntilInvalid: row(40096, 400, 'invalid request: Repeat-Until invalid, must be a duration like 2h, at least the Repeat interval and at most repeat-until-limit', `${docs}/publish/#repeated-alerts`),
  callbackInvalid: row(40097, 400, 'invalid request: Callback invalid, must be an https:// URL', `${docs}/publish/#repeated-alerts`),
  escalateInvalid: row(40098, 400, 'invalid request: Escalate invalid, must be up to 5 steps like "15m email ops@example.com, 30m call +15551234567" within Repeat-Until', `${docs}/publish/#repeated-alerts`),
  repeatUnsupported: row(40099, 400, 'invalid request: Repeat-Until, Callback and Escalate need Repeat, and Repeat a cached message sent now (no Delay, Cache: no or poll request)', `${docs}/publish/#repeated-alerts`),
  unauthorized: row(40101, 401, 'unauthorized', `${docs}/publish/#authentication`),
  forbidden: row(40301, 403, 'forbidden', `${docs}/publish/#authentication`),
  notFound: row(40401, 404, 'page not found'),
  monitorNotFound: row(40402, 404, 'monitor not found'),
  // Tocsin's own (issue 37): no repeated alert of that id on that topic (never one, or its receipt expired).
  receiptNotFound: row(40403, 404, 'receipt not found'),
  userExists: row(40901, 409, 'conflict: user already exists'),
  topicReserved: row(40902, 409, 'conflict: access control entry for topic or topic pattern already exists'),
  subscriptionExists: row(40903, 409, 'conflict: topic subscription already exists'),
  phoneNumberExists: row(40904, 409, 'conflict: phone number already exists'),
  provisionedUserChange: row(40905, 409, 'conflict: cannot change or delete provisioned user'),
  provisionedTokenChange: row(40906, 409, 'conflict: cannot change or delete provisioned token'),
  emailExists: row(40907, 409, 'conflict: email address already exists'),
  emailPrimaryElsewhere: row(40908, 409, 'conflict: email address is the primary email on another account'),
  // ntfy's prototype answers 40908, which ntfy 2.25 gave to e-mail addresses; Tocsin keeps codes unique.
  monitorExists: row(40909, 409, 'conflict: monitor already exists'),
  groupExists: row(40910, 409, 'conflict: group already exists'),
  provisionedGroupChange: row(40911, 409, 'conflict: cannot change or delete provisioned group or membership'),
  // Tocsin's own (issue 38; ntfy's tiers change only with its CLI): the admin API's /v1/tiers.
  tierExists: row(40912, 409, 'conflict: tier already exists'),
  tierInUse: row(40913, 409, 'conflict: tier is in use, move its users to another tier first'),
  phoneVerificationExpired: row(41001, 410, 'phone number verification expired or does not exist'),
  entityTooLargeAttachment: row(41301, 413, 'attachment too large, or bandwidth limit reached', `${docs}/publish/#limitations`),
  entityTooLargeMatrixRequest: row(41302, 413, 'Matrix request is larger than the max allowed length'),
  entityTooLargeJsonBody: row(41303, 413, 'JSON body too large'),
  // Tocsin's own: ntfy's Go server answers 431 with a plain-text body (and nginx before it 400).
  headerFieldsTooLarge: row(43101, 431, 'request header fields too large', `${docs}/publish/#limitations`),
  tooManyRequests: row(42901, 429, 'limit reached: too many requests', `${docs}/publish/#limitations`),
  tooManyEmails: row(42902, 429, 'limit reached: too many emails', `${docs}/publish/#limitations`),
  tooManySubscriptions: row(42903, 429, 'limit reached: too many active subscriptions', `${docs}/publish/#limitations`),
  tooManyTopics: row(42904, 429, 'limit reached: the total number of topics on the server has been reached, please contact the admin', `${docs}/publish/#limitations`),
  bandwidthLimit: row(42905, 429, 'limit reached: daily bandwidth reached', `${docs}/publish/#limitations`),
  tooManyMessages: row(42908, 429, 'limit reached: daily message quota reached', `${docs}/publish/#limitations`),
  // ntfy 2.25: sign-ups and password-reset requests share this limit.
  tooManyAccountActions: row(42906, 429, 'limit reached: too many account requests', `${docs}/publish/#limitations`),
  tooManyReservations: row(42907, 429, 'limit reached: too many topic reservations for this user'),
  tooManyAuthFailures: row(42909, 429, 'limit reached: too many auth failures', `${docs}/publish/#limitations`),
  tooManyCalls: row(42910, 429, 'limit reached: daily phone call quota reached', `${docs}/publish/#limitations`),
  // ntfy 2.23's errHTTPTooManyRequestsLimitTopicCreation; its number is inferred (42910 is calls, so the next).
  tooManyTopicCreations: row(42911, 429, 'limit reached: too many new topics, please slow down', `${docs}/publish/#limitations`),
  // Tocsin's own (ntfy's prototype has no limit): past monitor-limit monitors.
  tooManyMonitors: row(42912, 429, 'limit reached: too many monitors for this user'),
  internal: row(50001, 500, 'internal server error'),
  missingBaseUrl: row(50003, 500, 'internal server error: base-url must be be configured for this feature', `${docs}/config/`),
  insufficientStorageUnifiedPush: row(50701, 507, 'cannot publish to UnifiedPush topic without previously active subscriber'),
  // Tocsin's own (ntfy answers 50001 for any cache failure): the message was not stored, and a retry may succeed.
  cacheFull: row(50702, 507, 'insufficient storage: the message cache is full, the message was not stored'),
  // Not stored, or (a database that stopped answering mid-write) not confirmed: never acknowledged.
  cacheUnavailable: row(50301, 503, 'service unavailable: the message cache cannot be written, the message was not stored (or not confirmed)'),
  // Tocsin's own (ntfy has no database to lose): a read of users and access entries that got no answer.
  storeUnavailable: row(50302, 503, 'service unavailable: the database cannot be reached, try again later'),
  // Tocsin's own (ntfy answers 50001): the attachment storage (an S3 bucket) did not answer or refused; nothing was stored.
  attachmentsUnavailable: row(50303, 503, 'service unavailable: the attachment storage cannot be reached, try again later'),
  // Tocsin's own (issue 38): the OpenID Connect provider did not answer its discovery or token request.
  identityProviderUnavailable: row(50304, 503, 'service unavailable: the identity provider cannot be reached, try again later'),
} as const;

export type ErrorName = keyof typeof errors;
