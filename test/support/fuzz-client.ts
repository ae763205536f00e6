import { connect } from 'node:net';

export interface Answer {
  /** The status code, or 'closed' (the connection ended with no status line), or 'timeout'. */
  status: number | 'closed' | 'timeout';
  /** What arrived in the first moments after the status line (enough for an error body). */
  text: string;
}

/**
 * Sends raw bytes on a fresh connection and waits for the status line and, for an error,
 * its body; a stream that answered 200 or 101 is not read further, nor the answer to a
 * HEAD (`head`), whose Content-Length promises no body.
 */
export function send(port: number, bytes: Buffer, timeoutMs: number, head = false): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (answer: Answer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ status: statusOf(text) ?? 'timeout', text }), timeoutMs);
    socket.on('error', () => finish({ status: statusOf(text) ?? 'closed', text }));
    socket.on('close', () => finish({ status: statusOf(text) ?? 'closed', text }));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const status = statusOf(text);
      if (status === undefined) return;
      // An answer is whole once its body is (Content-Length), or at once for a stream.
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      const whole = status < 300 || head || length === undefined || text.length >= end + 4 + Number(length);
      if (whole) finish({ status, text });
    });
    socket.write(bytes);
  });
}

function statusOf(text: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The ntfy error code of an answer's JSON body, if it has one. */
export function ntfyCode(answer: Answer): number | undefined {
  const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
  return Number(/"code":(\d{5})/.exec(body)?.[1]) || undefined;
}
