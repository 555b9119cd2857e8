import { createServer } from 'node:net';

/** PORT is taken: refused before a database is opened, created or seeded. */
export class PortInUseError extends Error {}

/**
 * Refuses a PORT another process listens on, before anything is created: otherwise a first
 * start would create and seed a database (half a minute) only to fail at `listen`. A port
 * taken in the moment between this check and `listen` still fails there.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new PortInUseError(
        `PORT ${port} is in use on ${host}: another process (another npm start?) listens there; stop it or set PORT to a free port (PORT=0 picks one)`,
      );
    }
    if (code === 'EACCES') {
      throw new PortInUseError(`PORT ${port} on ${host} needs privileges: use a port above 1023`);
    }
    throw error;
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
