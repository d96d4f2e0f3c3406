// The reference floor: the necessary work of each benchmarked operation (floor-work.mjs) on
// node:http, with nothing between the socket and the work. What it leaves out is what the service
// adds beyond an answer: metrics, logs, the OpenAPI document, the admin API. bench/run.mjs checks
// before measuring that it answers as the service does.
import { createServer } from 'node:http';
import { answer } from './floor-work.mjs';

createServer((req, res) => {
  answer(req).then(({ status, headers, body }) => {
    // A load generator aborts requests in flight when a run ends: that is not the server's fault.
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));

// Exits normally when stopped, so that a CPU profile (bench --profile) is written.
process.on('SIGTERM', () => process.exit(0));
