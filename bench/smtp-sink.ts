// An SMTP server in the bench process that accepts every e-mail and notes when each arrived, by
// its Message-ID (read from the headers, nothing parsed beyond them): the sustained delivery row's
// mail sink. Unreferenced: it never keeps the bench alive on its own.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  readonly url: string;
  /** Arrival (epoch ms) of each e-mail by its Message-ID, `<…>` included. */
  readonly arrivals: Map<string, number>;
  close(): Promise<void>;
}

const MESSAGE_ID = /^message-id:\s*(<[^>\r\n]+>)/im;

export async function startSmtpSink(): Promise<SmtpSink> {
  const arrivals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 0,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        // The headers come first: 8 KiB of them is plenty, the attachments are skipped.
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = MESSAGE_ID.exec(head)?.[1];
        if (id) arrivals.set(id, Date.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.server.unref();
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${String(port)}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
