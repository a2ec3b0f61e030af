/**
 * `npm run start:sample` runs this first: a taken port is reported in one line, before the build
 * (the sample listens on APP_PORT, else PORT, else 3100, as its main.ts does).
 */
const { createServer } = require('node:net');

const raw = process.env.APP_PORT?.trim() || process.env.PORT?.trim() || '3100';
const port = Number(raw);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`✖ APP_PORT "${raw}" is not a port: use an integer between 1 and 65535.`);
  process.exit(1);
}
const server = createServer();
server.once('error', (error) => {
  const taken = error.code === 'EADDRINUSE';
  console.error(
    taken
      ? `✖ Port ${port} is already in use: stop the process using it, or set APP_PORT to a free port (APP_PORT=3200 npm run start:sample).`
      : `✖ Cannot listen on port ${port} (${error.code ?? error.message}): set APP_PORT to another port.`,
  );
  process.exit(1);
});
server.listen(port, () => server.close());
