/** A browser's push subscription (the PushSubscription of the Push API) as the store keeps it. */
export interface WebPushSubscription {
  /** `wps_` and 10 random characters, kept across updates of the same endpoint. */
  id: string;
  /** The push service's URL for this browser; unique. */
  endpoint: string;
  /** The browser's auth secret and P-256 public key, base64url, as the browser gave them. */
  auth: string;
  p256dh: string;
  /** The user name that subscribed, '' for anonymous. */
  userId: string;
}

/** What `upsert` takes: a subscription as the browser sends it, with who sent it. */
export interface WebPushRegistration {
  endpoint: string;
  auth: string;
  p256dh: string;
  userId: string;
  subscriberIp: string;
  topics: readonly string[];
}

/** A subscription with all the store keeps of it, as another server kept it (`tocsin import tocsin`). */
export interface KeptWebPushSubscription extends WebPushSubscription {
  subscriberIp: string;
  topics: readonly string[];
  updatedAt: number;
  /** When the expiry warning was sent; 0 when none was. */
  warnedAt: number;
}

/** ntfy's subscriptionEndpointLimitPerSubscriberIP: endpoints one address may register. */
export const endpointsPerAddress = 10;

/** An address already holds `endpointsPerAddress` other endpoints. */
export class TooManyWebPushSubscriptions extends Error {
  constructor() {
    super('too many web push subscriptions for this address');
  }
}

/**
 * The web push subscriptions port (ntfy's webpush_store.go): which browsers to push each
 * topic's messages to. The embedded implementation is an SQLite file (web-push-file),
 * the MongoDB one a collection beside the other stores. Times are Unix seconds, given by
 * the caller. Contract, for every implementation:
 * - `upsert` makes the endpoint's subscription exactly what it is given: keys, user,
 *   topics (replacing the earlier ones, none allowed), `updatedAt` now and no expiry
 *   warning sent; an endpoint seen before keeps its id. A new endpoint from an address
 *   already holding `endpointsPerAddress` throws TooManyWebPushSubscriptions and changes
 *   nothing.
 * - `forTopic` answers every subscription listing the topic, ordered by endpoint.
 * - `expiring(before)` answers the subscriptions last updated at or before `before`
 *   that were sent no warning since; `markWarned` records that they were, until their
 *   next `upsert`.
 * - `import` adds a subscription as another server kept it: id, times, warning and topics.
 *   An endpoint held already is left as it is (answers false), so an import run again adds
 *   nothing; the address limit is not checked (that server held it).
 * - `touch(endpoints, now)` renews those subscriptions as an upsert would (`updatedAt` now,
 *   no expiry warning sent) without changing anything else; an endpoint not held is skipped.
 * - `removeExpired(before)` removes those last updated at or before `before` and
 *   answers how many; `removeByEndpoint` and `removeByUser` remove theirs (`removeByUser('')`
 *   removes nothing: anonymous subscriptions belong to no one). Every removal
 *   takes the subscription's topics with it.
 * - Several instances on one database (nodes) see each other's changes at their next call.
 * - `close` is called once; nothing is called after it.
 */
export interface WebPushStore {
  upsert(registration: WebPushRegistration, now: number): Promise<void>;
  import(subscription: KeptWebPushSubscription): Promise<boolean>;
  forTopic(topic: string): Promise<WebPushSubscription[]>;
  expiring(before: number): Promise<WebPushSubscription[]>;
  markWarned(ids: readonly string[], now: number): Promise<void>;
  touch(endpoints: readonly string[], now: number): Promise<void>;
  removeExpired(before: number): Promise<number>;
  removeByEndpoint(endpoint: string): Promise<void>;
  removeByUser(userId: string): Promise<void>;
  close(): Promise<void>;
}
