import net from 'node:net';

/** A TCP port of 127.0.0.1 that nothing listens on right now, for a server that must know its port before it
 * starts (its PUBLIC_URL names it). The system picks it (port 0), so a port another program holds is never taken. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
