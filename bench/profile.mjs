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

/** What a profiled function belongs to, grouped as the --attribute report compares them. */
function layerOf(frame) {
  const owner = ownerOf(frame);
  if (/^the (project|floor) \(/.test(owner)) return "the server's own code";
  if (/^(@nestjs\/|reflect-metadata$|rxjs$|iterare$|path-to-regexp$|uid$)/.test(owner))
    return 'Nest';
  if (/^(fastify$|find-my-way$|@fastify\/|fast-|light-my-request$|avvio$|toad-cache$)/.test(owner))
    return 'Fastify';
  if (/^(pg|postgres-|typeorm$)/.test(owner)) return 'pg (pool, protocol, types), TypeORM';
  if (/^(ioredis$|redis-|denque$|cluster-key-slot$|standard-as-callback$|debug$)/.test(owner))
    return 'ioredis';
  if (/^class-(validator|transformer)$/.test(owner)) return 'class-validator, class-transformer';
  if (owner === '(native)') {
    return /^(writev|writeUtf8String|writeBuffer|writeLatin1String)$/.test(frame.functionName)
      ? 'socket writes (system calls)'
      : 'other native code and builtins';
  }
  return owner;
}

/**
 * Self time per request by layer for each server's profile, over the window its probe measured
 * (`measured[name].window`, process.hrtime in µs, the clock V8's profiles use), and the service's
 * functions with the most self time there.
 */
export function attributionTables(profileDir, measured, { top = 25 } = {}) {
  const names = Object.keys(measured);
  const layers = new Map();
  const busy = {};
  const serviceFunctions = new Map();
  for (const name of names) {
    const { nodes, samples, timeDeltas, startTime } = JSON.parse(
      readFileSync(`${profileDir}/${name}.cpuprofile`, 'utf8'),
    );
    const byId = new Map(nodes.map((node) => [node.id, node]));
    const { window, requests } = measured[name];
    const [from, to] = window;
    busy[name] = 0;
    let at = startTime;
    samples.forEach((id, i) => {
      at += timeDeltas[i] ?? 0;
      if (at < from || at > to) return;
      const frame = byId.get(id).callFrame;
      if (frame.functionName === '(idle)') return;
      // A sample stands for the time until the next one.
      const us = (timeDeltas[i + 1] ?? timeDeltas[i] ?? 0) / requests;
      busy[name] += us;
      const layer = layerOf(frame);
      if (!layers.has(layer)) layers.set(layer, {});
      layers.get(layer)[name] = (layers.get(layer)[name] ?? 0) + us;
      if (name === 'service') {
        const where = frame.url
          ? ` (${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1})`
          : '';
        const fn = `${frame.functionName || '(anonymous)'}${where}, ${ownerOf(frame)}`;
        serviceFunctions.set(fn, (serviceFunctions.get(fn) ?? 0) + us);
      }
    });
  }
  const us = (value) => (value ?? 0).toFixed(1);
  const rows = [...layers]
    .filter(([, row]) => Math.max(...names.map((name) => row[name] ?? 0)) >= 0.2)
    .sort((a, b) => (b[1].service ?? 0) - (a[1].service ?? 0))
    .map(([layer, row]) => `| ${layer} | ${names.map((name) => us(row[name])).join(' | ')} |`);
  const packages = [
    `| µs of main-thread CPU per request | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---:').join('|')}|`,
    ...rows,
    `| **all of it** | ${names.map((name) => `**${us(busy[name])}**`).join(' | ')} |`,
    `| CPU per request by the probe (µs) | ${names.map((name) => us(measured[name].cpuMsPerRequest * 1000)).join(' | ')} |`,
    `| requests/s, profiled | ${names.map((name) => Math.round(measured[name].rps)).join(' | ')} |`,
  ].join('\n');
  const functions = [
    `| The service's ${top} functions with the most self time | µs per request |`,
    '|---|---:|',
    ...[...serviceFunctions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, value]) => `| ${fn.replace(/\|/g, '\\|')} | ${value.toFixed(2)} |`),
  ].join('\n');
  return { packages, functions };
}
