import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection answered while its client was still sending a body goes on reading, and
 * dropping, what the client sends, before it is closed whatever is left: time for the client to
 * read the answer and stop.
 */
export const LINGER_MS = 2_000;

/**
 * Makes the close that follows an early answer (`Connection: close`, a large body still to come)
 * a lingering one, as nginx's `lingering_close`: the answer, then the end of the service's side
 * (FIN), then whatever the client still sends read and dropped, never kept, until its body ends
 * (a clean close) or LINGER_MS pass.
 *
 * Node's own close destroys the socket as soon as the answer is written. The client's bytes that
 * keep coming then meet a closed socket, which Linux answers with a reset, and a client still
 * writing its body loses the answer it had not read yet: of keyless 10 MiB uploads sent whole,
 * fetch saw 8 of 20 401s, Node's http.request 27 of 30, curl 1 of 6; the rest failed with EPIPE
 * or ECONNRESET. Nothing of the body is read before the answer, and none of it is kept after.
 */
export function lingerAfterAnswer(request: IncomingMessage): void {
  // Node closes a `Connection: close` answer's socket with destroySoon() once the answer is sent
  // (the HTTP server's resOnFinish): that is the moment to linger instead.
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (typeof socket.destroySoon !== 'function') return;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
    request.once('end', close);
    // Read and dropped: a body whose reading stopped half-way was left paused.
    request.resume();
  };
}
