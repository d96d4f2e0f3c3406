// The webhooks scenario's receiver: plain node:http on loopback, a process of its own so that the
// load generator's work never delays a receipt. It answers every delivery 204 once its body has
// arrived and notes when: the endpoint (the path), the webhook-id, the event's type and its
// object's id (data.id), at Date.now() (the machine's one clock, as the bench's). Signatures are not
// verified: the e2e specs do that; here a delivery is counted and timed. The bench asks over IPC
// for what arrived and clears it between phases, and may have it hold its answers: then every
// attempt waits, and the worker, its endpoints at their cap, claims nothing more.
import { createServer } from 'node:http';

/** While holding: the answers not given yet. */
let held = null;

/** Every receipt since the last reset, in arrival order: columns, to stay small at 100,000. */
let receipts = newReceipts();

function newReceipts() {
  return { endpoint: [], webhookId: [], type: [], objectId: [], at: [] };
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    let event = {};
    try {
      event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // Counted all the same, without a type: the report shows it as such.
    }
    receipts.endpoint.push(request.url);
    receipts.webhookId.push(request.headers['webhook-id']);
    receipts.type.push(event.type);
    receipts.objectId.push(event.data?.id);
    receipts.at.push(at);
    if (held) held.push(response);
    else response.writeHead(204).end();
  });
});
// As many connections as the service's agent opens: no backlog of sockets in the receiver.
server.maxConnections = 1024;
server.keepAliveTimeout = 60_000;

/** How many arrived, how many distinct (endpoint, webhook-id), and the first and last arrival. */
function counts() {
  const distinct = new Set(
    receipts.at.map((_, i) => `${receipts.endpoint[i]} ${receipts.webhookId[i]}`),
  );
  return {
    received: receipts.at.length,
    distinct: distinct.size,
    first: receipts.at[0] ?? null,
    last: receipts.at.at(-1) ?? null,
  };
}

process.on('message', (message) => {
  switch (message?.receiver) {
    case 'reset':
      receipts = newReceipts();
      process.send({ receiver: 'reset' });
      break;
    case 'hold':
      held ??= [];
      process.send({ receiver: 'hold' });
      break;
    case 'release':
      for (const response of held ?? []) if (!response.destroyed) response.writeHead(204).end();
      held = null;
      process.send({ receiver: 'release' });
      break;
    case 'counts':
      process.send({ receiver: 'counts', counts: counts() });
      break;
    case 'receipts':
      process.send({ receiver: 'receipts', counts: counts(), receipts });
      break;
  }
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
