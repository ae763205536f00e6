import { createReadStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ClientError } from './client-error.js';

export interface Sent {
  status: number;
  body: string;
}

/** A request body: bytes, or a file streamed with its size known. */
export type Body = Buffer | { path: string; size: number };

/**
 * Sends one request and reads the answer. Header values go out as their UTF-8 bytes, as
 * Go's client sends them (Node takes header strings as Latin-1). `onProgress` hears the
 * bytes of the body as they leave.
 */
export async function send(method: string, url: string, headers: Record<string, string>, body: Body, onProgress?: (sent: number) => void): Promise<Sent> {
  const size = Buffer.isBuffer(body) ? body.length : body.size;
  const wire: OutgoingHttpHeaders = { 'Content-Length': size };
  for (const [name, value] of Object.entries(headers)) wire[name] = Buffer.from(value, 'utf8').toString('latin1');
  const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method, headers: wire });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  try {
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : createReadStream(body.path);
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        onProgress?.(sent);
        done(null, chunk);
      },
    });
    // The server may answer (and close) before the whole body is sent, a 413 for a big
    // upload: its answer is what counts, and a failed read of the file ends the request too.
    void pipeline(source, counter, request).catch((err: Error) => request.destroy(err));
    const response = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
    return { status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    throw new ClientError(`${method} ${JSON.stringify(url)}: ${(err as Error).message}`);
  }
}
