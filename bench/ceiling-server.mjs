// The no-I/O ceiling: node:http returning a fixed body, the most any server here can answer.
import { createServer } from 'node:http';

const body = JSON.stringify(
  Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    name: `pet ${i + 1}`,
    categoryId: 1,
    status: 'available',
  })),
);
createServer((req, res) => {
  req.resume();
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
