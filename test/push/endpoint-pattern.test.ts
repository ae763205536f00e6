import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { settings } from '../../src/config/schema.js';
import { endpointRefusal, parseEndpointPattern } from '../../src/push/endpoint-pattern.js';

const defaults = (settings['web-push-allowed-endpoints'].default as readonly string[]).map((entry) => parseEndpointPattern(entry, false));
const allowedSuffixes = ['.google.com', '.googleapis.com', '.mozilla.com', '.mozaws.net', '.windows.com', '.microsoft.com', '.apple.com'];

describe('web push endpoint patterns', () => {
  it('real push services\' endpoints pass the default list (Chrome, Firefox, Safari, Edge)', () => {
    const real = [
      'https://fcm.googleapis.com/fcm/send/dXk2Z3RwbGFjZWhvbGRlcg:APA91bH8x-Y_z0kLmN4pQ7rS1tU2vW3xY4zA5bC6dE7fG8hI9jK0lM1nO2pQ3rS4tU5vW6xY7zA8bC9dE0fG1hI2jK3lM4nO5pQ6',
      'https://android.googleapis.com/gcm/send/APA91bEpNeKh0Qd3RUnXyUSb0tYmWoh1gwpa',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmRk2d-3lTg8_aPl9tqK6u1uJ0K0Z8Q6kz4Ndu0k1Rf-ZQ2h8Y4=',
      'https://web.push.apple.com/QGx5Nh9xcMZw4ptFvGq_8eTqzRk4QZ7vXK2RrUJJ8Gv7n8b1r0b9Y2Kq3YwH3QwC2tXK7',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAADqC9f2%2bK8vPz%2fUu6H1TjJ%3d',
    ];
    assert.deepEqual(real.map((e) => endpointRefusal(e, defaults)), real.map(() => undefined));
  });

  it('hostile endpoints are refused, each for its reason', () => {
    const cases: [string, string][] = [
      ['https://127.0.0.1:18299\\x.google.com/../../internal/admin?action=restart', 'a backslash, space or control character'], // issue 33's reproducer
      ['https://fcm.googleapis.com\\@127.0.0.1/', 'a backslash, space or control character'],
      ['https://fcm.goo\tgleapis.com/x', 'a backslash, space or control character'],
      ['https://x@fcm.googleapis.com/x', 'a user name or password'],
      ['https://fcm.googleapis.com@127.0.0.1/x', 'a user name or password'],
      ['https://fcm.googleapis.com:8443/x', 'not at an allowed push service'],
      ['https://fcm.googleapis.com:443/x', 'not written as its parsed form'],
      ['http://fcm.googleapis.com/x', 'not at an allowed push service'],
      ['https://142.250.74.42/fcm/send/x', 'an IP address'],
      ['https://[::1]/x', 'an IP address'],
      ['https://0x7f.1/x', 'not written as its parsed form'],
      ['https://FCM.googleapis.com/x', 'not written as its parsed form'],
      ['https://fcm.googleapis.com/fcm/../../admin', 'not written as its parsed form'],
      ['https://fcm.googleapis.com/fcm%2f..%2fadmin', 'a percent-encoded separator in its host or path'],
      ['https://fcm.googleapis.com/%2e%2e/admin', 'a percent-encoded separator in its host or path'],
      ['https://fcm.googleapis.com/a%5cb', 'a percent-encoded separator in its host or path'],
      ['https://fcm.googleapis.com%40evil.example/x', 'a percent-encoded separator in its host or path'],
      ['https://fcm.googleapis.com/a%3fb%23c', 'a percent-encoded separator in its host or path'],
      ['https://evil.example/https://x.google.com/', 'not at an allowed push service'],
      ['https://x.google.com.evil.example/', 'not at an allowed push service'],
      ['https://google.com/', 'not at an allowed push service'],
      ['https://evilgoogle.com/', 'not at an allowed push service'],
      ['not a url', 'a backslash, space or control character'],
      ['fcm.googleapis.com/x', 'not a URL'],
      [`https://fcm.googleapis.com/${'a'.repeat(2100)}`, 'longer than 2048 characters'],
    ];
    assert.deepEqual(cases.map(([e]) => [e, endpointRefusal(e, defaults)]), cases);
  });

  it('a pattern\'s path prefix, port and IP address are matched on the parsed URL', () => {
    const local = [parseEndpointPattern('http://127.0.0.1:8080/push/', true)];
    assert.equal(endpointRefusal('http://127.0.0.1:8080/push/b1', local), undefined);
    assert.equal(endpointRefusal('http://127.0.0.1:8081/push/b1', local), 'not at an allowed push service');
    assert.equal(endpointRefusal('http://127.0.0.1:8080/admin', local), 'not at an allowed push service');
    assert.equal(endpointRefusal('http://127.0.0.2:8080/push/b1', local), 'an IP address');
  });

  it('property: an accepted endpoint is https, on the default port, at a host under a listed domain, with no backslash or user', () => {
    const piece = fc.constantFrom('https://', 'http://', '127.0.0.1', ':18299', ':443', '\\', 'x.google.com', 'fcm.googleapis.com', '/', '..', '%2f', '%2F', '%5c', '%2e', '@', '?', '#', 'a', '.', 'evil.example', ':', '[::1]', '\t', ' ', 'GOOGLE.com', '%40');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')), (endpoint) => {
        if (endpointRefusal(endpoint, defaults) !== undefined) return;
        const url = new URL(endpoint);
        assert.equal(url.protocol, 'https:');
        assert.equal(url.port, '');
        assert.equal(url.username + url.password, '');
        assert.ok(!endpoint.includes('\\'));
        assert.ok(allowedSuffixes.some((suffix) => url.hostname.endsWith(suffix)), url.hostname);
      }),
      { numRuns: 5000 },
    );
  });
});
