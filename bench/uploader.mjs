// The uploads scenario's uploader: a process of its own, so that sending 16 MB a second never
// delays the load generator's timing of the listing it measures (in the bench's own process the
// sending took a fifth of a core and the listing's measured p99 with it). Told over IPC what to
// send, it posts the image every 1/perSecond s, 12 to a pet, until told to stop; then it waits
// for every answer and reports how many were 201, 503 (busy) or, by status, anything else.
import { readFileSync } from 'node:fs';
import http from 'node:http';

let job = null;

function start({ url, headers, imagePath, firstPet, perSecond }) {
  const image = readFileSync(imagePath);
  const agent = new http.Agent({ keepAlive: true });
  // `other` by status ('error': no answer), so that a 5xx never hides among them.
  const counts = { created: 0, busy: 0, other: {} };
  const other = (status) => (counts.other[status] = (counts.other[status] ?? 0) + 1);
  const inFlight = new Set();
  let sent = 0;
  const send = () =>
    new Promise((resolve) => {
      // 12 photos a pet, the most it may have: the next pet after each twelve.
      const pet = firstPet + Math.floor(sent++ / 12);
      const request = http.request(
        `${url}/v1/pets/${pet}/photos`,
        {
          method: 'POST',
          agent,
          headers: { ...headers, 'content-type': 'image/jpeg', 'content-length': image.length },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode === 201) counts.created++;
            else if (response.statusCode === 503) counts.busy++;
            else other(response.statusCode);
            resolve();
          });
        },
      );
      request.on('error', () => {
        other('error');
        resolve();
      });
      request.end(image);
    });
  const timer = setInterval(() => {
    const upload = send();
    inFlight.add(upload);
    void upload.finally(() => inFlight.delete(upload));
  }, 1000 / perSecond);
  job = { counts, inFlight, timer, agent };
}

async function stop() {
  const { counts, inFlight, timer, agent } = job;
  clearInterval(timer);
  await Promise.all(inFlight);
  agent.destroy();
  job = null;
  return counts;
}

process.on('message', async (message) => {
  if (message.start) {
    start(message.start);
    process.send({ started: true });
  } else if (message.stop) {
    process.send({ stopped: await stop() });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
