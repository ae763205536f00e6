import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { urlRefusal } from '../../src/model/message-url.js';

const dangerous = ['javascript', 'data', 'vbscript', 'file', 'blob'];

describe('message URLs', () => {
  it('links ntfy\'s docs show for click and view actions are accepted', () => {
    const links = [
      'https://home.nest.com/',
      'http://192.168.1.5:8123/lovelace/0',
      'mailto:phil@example.com',
      'geo:0,0?q=1600+Amphitheatre+Parkway,+Mountain+View,+CA',
      'ntfy://ntfy.sh/stats',
      'twitter://user?screen_name=binwiederhier',
      'HTTPS://EXAMPLE.COM/Path',
    ];
    assert.deepEqual(links.map((url) => urlRefusal(url, 'open')), links.map(() => undefined));
  });

  it('code-running, local and scheme-less links are refused, each for its reason', () => {
    const cases: [string, string][] = [
      ['javascript:alert(document.cookie)', 'scheme javascript: is not allowed'],
      ['JaVaScRiPt:alert(1)', 'scheme javascript: is not allowed'],
      ['javascript://%0aalert(1)', 'scheme javascript: is not allowed'],
      ['data:text/html,<script>alert(1)</script>', 'scheme data: is not allowed'],
      ['vbscript:msgbox(1)', 'scheme vbscript: is not allowed'],
      ['file:///etc/passwd', 'scheme file: is not allowed'],
      ['blob:https://tocsin.example/8d0f', 'scheme blob: is not allowed'],
      ['intent://scan/#Intent;scheme=zxing;end', 'scheme intent: is not allowed'],
      ['tel:+12223334444', 'scheme tel: is not allowed'],
      [' javascript:alert(1)', 'no scheme'],
      ['\x01javascript:alert(1)', 'a control character'],
      ['java\tscript:alert(1)', 'a control character'],
      ['java\nscript:alert(1)', 'a control character'],
      ['javascript&#58;alert(1)', 'no scheme'],
      ['&#106;avascript:alert(1)', 'no scheme'],
      ['javascript%3Aalert(1)', 'no scheme'],
      ['%6Aavascript:alert(1)', 'no scheme'],
      ['//evil.example/', 'no scheme'],
      ['example.com/page', 'no scheme'],
      ['https://exa mple.com/', 'not a valid URL'],
      [`https://example.com/${'a'.repeat(2048)}`, 'longer than 2048 characters'],
    ];
    assert.deepEqual(cases.map(([url]) => [url, urlRefusal(url, 'open')]), cases);
  });

  it('icons, attachments and http actions are fetched: http(s) only', () => {
    assert.equal(urlRefusal('https://example.com/icon.png', 'fetch'), undefined);
    assert.equal(urlRefusal('mailto:phil@example.com', 'fetch'), 'scheme mailto: is not http or https');
    assert.equal(urlRefusal('ntfy://ntfy.sh/stats', 'fetch'), 'scheme ntfy: is not http or https');
    assert.equal(urlRefusal('data:image/png;base64,iVBORw0KGgo=', 'fetch'), 'scheme data: is not http or https');
  });

  it('property: no string with a dangerous scheme passes, whatever its case, leading characters, inserted whitespace or encoding', () => {
    const lead = fc.constantFrom('', ' ', '\t', '\n', '\x00', '\x01', '\x1f', '\u00a0', '\ufeff', '  \r\n');
    const scheme = fc
      .tuple(fc.constantFrom(...dangerous), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), fc.constantFrom('', '\t', '\n', '\r'), fc.nat(10))
      .map(([name, upper, inserted, at]) => {
        const cased = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        return cased.slice(0, at) + inserted + cased.slice(at);
      });
    const colon = fc.constantFrom(':', '&#58;', '&#x3a;', '%3a', '%3A', '&colon;', '\\u003a');
    const rest = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(lead, scheme, colon, fc.constantFrom('', '//'), rest, (l, s, c, slashes, r) => {
        const url = `${l}${s}${c}${slashes}${r}`;
        assert.notEqual(urlRefusal(url, 'open'), undefined, JSON.stringify(url));
        assert.notEqual(urlRefusal(url, 'fetch'), undefined, JSON.stringify(url));
      }),
      { numRuns: 5000 },
    );
  });

  it('property: a link accepted is, to the browser\'s URL parser, never of a dangerous scheme', () => {
    const piece = fc.constantFrom('javascript', 'JAVAscript', 'data', 'https', 'mailto', ':', '//', '\t', ' ', '&#58;', '%3a', 'alert(1)', '/', 'x', '\\');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), (url) => {
        if (urlRefusal(url, 'open') !== undefined || !URL.canParse(url, 'https://tocsin.example/')) return; // a link that does not parse goes nowhere
        const protocol = new URL(url, 'https://tocsin.example/').protocol;
        assert.ok(!dangerous.includes(protocol.slice(0, -1)), `${JSON.stringify(url)} parses as ${protocol}`);
      }),
      { numRuns: 5000 },
    );
  });
});
