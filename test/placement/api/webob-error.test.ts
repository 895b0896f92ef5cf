import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  pythonJsonDumps,
  renderWebobError,
  stripTags,
  webobDefaultJson,
} from '../../../src/placement/api/webob-error.ts';

const facts = (accept: string) => ({ method: 'PUT', accept, contentType: 'text/plain' });
const asText = { format: (_s: number, _t: string, text: string) => ({ text }), stripped: true };

describe('errors rendered as WebOb renders them', () => {
  it('strips tags the WebOb way', () => {
    assert.equal(stripTags('a<br />b\nc<!-- x --><i>d</i>\r'), 'a\nb c x d');
  });

  it('JSON: the stripped template, explanation first', () => {
    const out = renderWebobError(409, 'taken', facts('application/json'), asText);
    assert.equal(out.contentType, 'application/json');
    assert.equal(
      out.body,
      '{"text": "There was a conflict when trying to complete your request.\\n\\n taken  "}',
    );
  });

  it('the 415 template quotes the content type; HTML escapes every value', () => {
    const html = renderWebobError(415, "it's <bad>", facts('text/html'), asText);
    assert.equal(html.contentType, 'text/html; charset=UTF-8');
    assert.equal(
      html.body,
      '<html>\n <head>\n  <title>415 Unsupported Media Type</title>\n </head>\n <body>\n  <h1>415 Unsupported Media Type</h1>\n  The request media type text/plain is not supported by this server.\n<br /><br />\nit&#x27;s &lt;bad&gt;\n </body>\n</html>',
    );
  });

  it('plain text when neither HTML nor JSON is acceptable', () => {
    const out = renderWebobError(405, 'no', facts('image/png'), asText);
    assert.equal(out.contentType, 'text/plain; charset=UTF-8');
    assert.equal(
      out.body,
      '405 Method Not Allowed\n\nThe method PUT is not allowed for this resource. \n\n no',
    );
  });

  it("WebOb's default formatter gets the template unstripped", () => {
    const out = renderWebobError(401, '', facts('application/json'), {
      format: webobDefaultJson,
      stripped: false,
    });
    assert.match(JSON.parse(out.body).message, /credentials required\.<br \/><br \/>\n\n\n$/);
    assert.equal(JSON.parse(out.body).code, '401 Unauthorized');
  });

  it("dumps JSON with Python's separators and ASCII escapes", () => {
    assert.equal(
      pythonJsonDumps({ a: [1, 'x, y: z'], é: '☃\u007f' }),
      '{"a": [1, "x, y: z"], "\\u00e9": "\\u2603\\u007f"}',
    );
  });
});
