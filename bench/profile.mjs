// Where the service's CPU time went, from the V8 profile it wrote under --profile: self time by
// package (the project's own code, each dependency, Node's internals, the garbage collector) and
// the functions with the most self time. Idle time is left out of the shares.
import { readFileSync } from 'node:fs';

/** What a profiled function belongs to, from the file it lives in. */
function ownerOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [scope, name] = url.slice(inModules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  if (url.startsWith('node:')) return '(node internals)';
  if (url.includes('/dist/libs/')) return 'the project (libs/)';
  if (url.includes('/dist/src/')) return 'the project (src/)';
  if (url.includes('/bench/')) return 'the floor (bench/)';
  return url;
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;

/** A markdown summary of one `.cpuprofile` file. */
export function profileSummary(file, { top = 15 } = {}) {
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (timeDeltas[i] ?? 0)));

  const owners = new Map();
  const functions = new Map();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    busyUs += us;
    const owner = ownerOf(frame);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const where = frame.url
      ? ` (${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1})`
      : '';
    const fn = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  const row = ([name, us]) => `| ${name} | ${percent(us, busyUs)} |`;
  // Packages under half a percent are summed into one row.
  const major = sorted(owners).filter(([, us]) => us >= busyUs / 200);
  const minor = sorted(owners).slice(major.length);
  const restUs = minor.reduce((sum, [, us]) => sum + us, 0);
  return [
    `Busy CPU time in the profile: ${(busyUs / 1e6).toFixed(1)} s (idle left out); (native) is ` +
      'C++ and system calls, such as the socket writes.',
    '',
    '| Self time by package | share |',
    '|---|---|',
    ...major.map(row),
    ...(minor.length ? [row([`${minor.length} other packages`, restUs])] : []),
    '',
    `| The ${top} functions with the most self time | share |`,
    '|---|---|',
    ...sorted(functions).slice(0, top).map(row),
  ].join('\n');
}
