import net from 'node:net';

/**
 * A TCP proxy between the app and a real server, for database fault tests: `cut()` ends every
 * connection at once (as a restart or a broken link does), `partition()` black-holes them (no byte
 * passes either way, new connections are accepted and then hear nothing, as in a network
 * partition), `heal()` lets traffic through again.
 */
export class TcpProxy {
  readonly #server: net.Server;
  readonly #pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  #partitioned = false;
  /** Connections accepted during a partition, connected upstream when it heals. */
  readonly #waiting = new Set<net.Socket>();

  private constructor(
    readonly target: { host: string; port: number },
    readonly port: number,
    server: net.Server,
  ) {
    this.#server = server;
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('proxy did not listen');
    const proxy = new TcpProxy(target, address.port, server);
    server.on('connection', (client: net.Socket) => proxy.accept(client));
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }

  get connections(): number {
    return this.#pairs.size + this.#waiting.size;
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (this.#partitioned) {
      client.pause();
      this.#waiting.add(client);
      client.on('close', () => this.#waiting.delete(client));
      return;
    }
    this.connect(client);
  }

  private connect(client: net.Socket): void {
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    const upstream = net.connect(this.target.port, this.target.host);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    this.#pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  }

  /** Ends every connection now; later ones pass again. */
  cut(): void {
    for (const { client, upstream } of this.#pairs) {
      client.destroy();
      upstream?.destroy();
    }
    for (const client of this.#waiting) client.destroy();
  }

  /** No byte passes, either way, on old or new connections, until `heal()`. */
  partition(): void {
    this.#partitioned = true;
    for (const { client, upstream } of this.#pairs) {
      client.unpipe();
      upstream?.unpipe();
      client.pause();
      upstream?.pause();
    }
  }

  heal(): void {
    this.#partitioned = false;
    for (const { client, upstream } of this.#pairs) {
      if (!upstream) continue;
      client.pipe(upstream);
      upstream.pipe(client);
    }
    for (const client of this.#waiting) {
      this.#waiting.delete(client);
      this.connect(client);
      client.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
