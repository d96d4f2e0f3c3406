// Summaries of repeated measurements, the verdicts against the targets, and the markdown report.

/** The targets of the performance issue; the report says which are met and by how much. */
export const TARGETS = {
  /** Each hot operation's throughput, at least this share of the floor's on the same Node. */
  floorRatio: 0.85,
  /** Each hot operation's p99 under full load, at most this many times the floor's. */
  p99VsFloor: 1.3,
  /** Bytes the service's heap allocates per request, at most (KB). */
  kbAllocatedPerRequest: 50,
  halfRateP99Ms: 25,
  peakRssMb: 200,
  scaleRatio: 1.2,
  /** A run is flat when its RSS grows less than this from its second fifth to its last. */
  soakGrowthMb: 10,
  /** placeOrder's service CPU per request, at most this many times createPet's. */
  placeOrderCpuRatio: 1.5,
  /** listOrders' throughput, at least this share of listPets'. */
  listOrdersRatio: 0.9,
  /** getInventory at --large-rows pets, at most this many times a list page's cost. */
  inventoryCostRatio: 2,
  /** A name search page at --large-rows pets: CPU per request and p99, at most this many times a plain page's. */
  nameSearchRatio: 2,
  /** A categoryId page at --large-rows pets: CPU per request and p99, at most this many times a plain page's. */
  categoryPageRatio: 1.2,
  /** A near page of organisations at 100,000, at most this many times a plain page's CPU and p99. */
  organizationsNearRatio: 2,
  /** updatePet's service CPU per request, at most this many times createPet's. */
  updatePetCpuRatio: 1.3,
  /** createPet naming a new category each time: CPU per request, at most this many times createPet's. */
  newCategoryCpuRatio: 1.1,
  /** placeOrder with three subscribed endpoints: service CPU per request, at most this many times with none. */
  webhooksPlaceOrderCpuRatio: 1.2,
  /** createPet with 10,000 endpoints of another key subscribed: p99 at most this many times with none. */
  fanOutP99Ratio: 1.2,
  /** A page of pets never analysed: throughput at least, p99 at most, this share of the same after ANALYZE. */
  unanalysedShare: 0.9,
  /** From a change's commit to its delivery's receipt at a local receiver, no backlog: p95 at most (ms). */
  commitToReceiptP95Ms: 1000,
  /** Deliveries a second to a local receiver, at least. */
  deliveriesPerSecond: 300,
  /** The API's p99 while a backlog of deliveries drains: less than this many times its p99 before. */
  drainP99Ratio: 2,
};

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const round = (value, digits = 0) => Number(value.toFixed(digits));

/**
 * Throughput ratios of two series of runs measured back to back, round by round (where both met
 * the same machine): each round's ratio, and their median.
 */
export function pairedRatio(runs, against, field = 'rps') {
  const ratios = runs.map((run, i) => run[field] / against[i][field]);
  return { ratio: round(median(ratios), 2), rounds: ratios.map((ratio) => round(ratio, 2)) };
}

/** The median of each figure over the rounds; failures are summed. */
export function summarize(samples) {
  const of = (field) => median(samples.map((s) => s[field]));
  return {
    rps: round(of('rps')),
    p50: of('p50'),
    p97_5: of('p97_5'),
    p99: of('p99'),
    errors: samples.reduce((sum, s) => sum + s.errors + s.non2xx, 0),
    cpuMsPerRequest: round(of('cpuMsPerRequest'), 3),
    ...(samples.every((s) => s.kbAllocatedPerRequest != null) && {
      kbAllocatedPerRequest: round(of('kbAllocatedPerRequest'), 1),
      scavengesPer1000: round(of('scavengesPer1000'), 1),
      gcUsPerRequest: round(of('gcUsPerRequest'), 1),
    }),
    rssMaxMb: round(Math.max(...samples.map((s) => s.rssMaxMb))),
    machineBusyPct: round(of('machineBusyPct')),
  };
}

/**
 * One target's row: what was asked, what was measured, the margin (positive: to spare; negative:
 * short by), and whether it is met.
 */
function target(asked, value, limit, unit, { atLeast = false, digits = 0 } = {}) {
  const margin = Number((atLeast ? value - limit : limit - value).toFixed(digits));
  const signed = `${margin >= 0 ? '+' : '−'}${Math.abs(margin)}${unit}`;
  return [asked, `${value}${unit}`, signed, margin >= 0 ? 'met' : 'NOT met'];
}

/** One row per target: what was asked, what was measured, by how much, whether it is met. */
export function verdicts(report) {
  const rows = [];
  const on = `on Node ${report.machine.node}, ${report.settings.connections} connections`;
  for (const [name, { ratio }] of Object.entries(report.operations)) {
    rows.push(
      target(
        `\`${name}\`: service / floor ≥ ${TARGETS.floorRatio} (${on})`,
        ratio,
        TARGETS.floorRatio,
        '',
        {
          atLeast: true,
          digits: 2,
        },
      ),
    );
  }
  for (const [name, { p99Ratio }] of Object.entries(report.operations)) {
    rows.push(
      target(
        `\`${name}\`: p99 ≤ ${TARGETS.p99VsFloor}× the floor's (${on})`,
        p99Ratio,
        TARGETS.p99VsFloor,
        '×',
        {
          digits: 2,
        },
      ),
    );
  }
  for (const [name, { service }] of Object.entries(report.operations)) {
    if (service.kbAllocatedPerRequest === undefined) continue;
    rows.push(
      target(
        `\`${name}\`: service heap allocation ≤ ${TARGETS.kbAllocatedPerRequest} KB per request`,
        service.kbAllocatedPerRequest,
        TARGETS.kbAllocatedPerRequest,
        ' KB',
        { digits: 1 },
      ),
    );
  }
  for (const [name, { p99, rate }] of Object.entries(report.halfRate)) {
    rows.push(
      target(
        `\`${name}\`: p99 at half the service's rate (${rate} req/s) ≤ ${TARGETS.halfRateP99Ms} ms`,
        p99,
        TARGETS.halfRateP99Ms,
        ' ms',
        { digits: 1 },
      ),
    );
  }
  rows.push(
    target(
      `Service peak RSS ≤ ${TARGETS.peakRssMb} MB`,
      report.servicePeakRssMb,
      TARGETS.peakRssMb,
      ' MB',
    ),
  );
  for (const [name, scale] of Object.entries(report.dataScale ?? {})) {
    rows.push(
      target(
        `\`${name}\` at ${scale.largeRows.toLocaleString('en')} rows within ${TARGETS.scaleRatio}× of ${scale.smallRows.toLocaleString('en')}`,
        scale.costRatio,
        TARGETS.scaleRatio,
        '×',
        { digits: 2 },
      ),
    );
  }
  if (report.store) {
    const { store } = report;
    rows.push(
      target(
        `\`POST /v1/store/orders\`: service CPU per request ≤ ${TARGETS.placeOrderCpuRatio}× \`POST /v1/pets\`'s`,
        store.placeOrderCpuRatio,
        TARGETS.placeOrderCpuRatio,
        '×',
        { digits: 2 },
      ),
      target(
        `\`GET /v1/store/orders?limit=20\`: req/s ≥ ${TARGETS.listOrdersRatio}× \`GET /v1/pets?limit=20\`'s`,
        store.listOrdersRatio,
        TARGETS.listOrdersRatio,
        '×',
        { atLeast: true, digits: 2 },
      ),
      target(
        `\`GET /v1/store/inventory\` at ${store.pets.toLocaleString('en')} pets: cost ≤ ${TARGETS.inventoryCostRatio}× a list page's`,
        store.inventoryCostRatio,
        TARGETS.inventoryCostRatio,
        '×',
        { digits: 2 },
      ),
    );
  }
  if (report.catalogue) {
    const c = report.catalogue;
    const at = `at ${c.pets.toLocaleString('en')} pets`;
    const ratioTarget = (asked, value, limit) => target(asked, value, limit, '×', { digits: 2 });
    rows.push(
      ratioTarget(
        `\`GET /v1/pets?name=${c.searched}\` ${at}: CPU per request ≤ ${TARGETS.nameSearchRatio}× a plain page's`,
        c.nameSearchCpuRatio,
        TARGETS.nameSearchRatio,
      ),
      ratioTarget(
        `\`GET /v1/pets?name=${c.searched}\` ${at}: p99 ≤ ${TARGETS.nameSearchRatio}× a plain page's`,
        c.nameSearchP99Ratio,
        TARGETS.nameSearchRatio,
      ),
      ratioTarget(
        `\`GET /v1/pets?categoryId=7\` ${at}: CPU per request ≤ ${TARGETS.categoryPageRatio}× a plain page's`,
        c.categoryPageCpuRatio,
        TARGETS.categoryPageRatio,
      ),
      ratioTarget(
        `\`GET /v1/pets?categoryId=7\` ${at}: p99 ≤ ${TARGETS.categoryPageRatio}× a plain page's`,
        c.categoryPageP99Ratio,
        TARGETS.categoryPageRatio,
      ),
      ratioTarget(
        `\`PATCH /v1/pets/{id}\`: service CPU per request ≤ ${TARGETS.updatePetCpuRatio}× \`POST /v1/pets\`'s`,
        c.updatePetCpuRatio,
        TARGETS.updatePetCpuRatio,
      ),
      ratioTarget(
        `\`POST /v1/pets\` naming a new category each time: CPU per request ≤ ${TARGETS.newCategoryCpuRatio}× into an existing one`,
        c.newCategoryCpuRatio,
        TARGETS.newCategoryCpuRatio,
      ),
    );
  }
  if (report.organizations) {
    const o = report.organizations;
    const at = `at ${o.organizations.toLocaleString('en')} organisations`;
    for (const [measure, value] of [
      ['CPU per request', o.nearCpuRatio],
      ['p99', o.nearP99Ratio],
    ]) {
      rows.push(
        target(
          `\`GET /v1/organizations?near=…\` ${at}: ${measure} ≤ ${TARGETS.organizationsNearRatio}× a plain page's`,
          value,
          TARGETS.organizationsNearRatio,
          '×',
          { digits: 2 },
        ),
      );
    }
  }
  if (report.webhooks) {
    const w = report.webhooks;
    const drain = target(
      `\`${w.reads.operation}\` at ${w.listRate} req/s while ${w.backlog.deliveries.toLocaleString('en')} queued deliveries drain: p99 < ${TARGETS.drainP99Ratio}× its p99 while the drain pauses (not doubled)`,
      w.reads.p99Ratio,
      TARGETS.drainP99Ratio,
      '×',
      { digits: 2 },
    );
    // Doubled at exactly twice: not met; nor when there was no window of draining to judge.
    if (w.reads.p99Ratio >= TARGETS.drainP99Ratio) drain[3] = 'NOT met';
    if (w.reads.p99Ratio === null) drain.splice(1, 3, 'no window of draining', '–', 'NOT met');
    rows.push(
      target(
        `\`POST /v1/store/orders\` with ${w.endpoints} endpoints subscribed to every event: service CPU per request ≤ ${TARGETS.webhooksPlaceOrderCpuRatio}× with none (the request path: the deliveries wait at a receiver that holds its answers)`,
        w.placeOrderCpuRatio,
        TARGETS.webhooksPlaceOrderCpuRatio,
        '×',
        { digits: 2 },
      ),
      target(
        `Commit to receipt at a local receiver, no backlog (${w.placeRate * w.deliveriesPerOrder} deliveries/s): p95 ≤ ${TARGETS.commitToReceiptP95Ms} ms`,
        w.commitToReceipt.p95,
        TARGETS.commitToReceiptP95Ms,
        ' ms',
      ),
      target(
        `Deliveries to a local receiver ≥ ${TARGETS.deliveriesPerSecond}/s (${w.backlog.deliveries.toLocaleString('en')} queued, drained under the read load)`,
        w.backlog.deliveriesPerSecond,
        TARGETS.deliveriesPerSecond,
        '/s',
        { atLeast: true },
      ),
      drain,
    );
  }
  if (report.fanOut) {
    const f = report.fanOut;
    rows.push(
      target(
        `\`POST /v1/pets\` at ${f.rate} req/s with ${f.endpoints.toLocaleString('en')} endpoints of another key subscribed to \`pet.created\`: p99 ≤ ${TARGETS.fanOutP99Ratio}× with none (fan-out after the write)`,
        f.p99Ratio,
        TARGETS.fanOutP99Ratio,
        '×',
        { digits: 2 },
      ),
      target(
        `The same against \`POST /v1/pets\` before any endpoint exists (the machine quiet; the cases above both run beside the fan-out's background work): p99 ≤ ${TARGETS.fanOutP99Ratio}×`,
        f.p99RatioToQuiet,
        TARGETS.fanOutP99Ratio,
        '×',
        { digits: 2 },
      ),
    );
  }
  if (report.unanalysed) {
    for (const [name, { throughput }] of Object.entries(report.unanalysed.ratios)) {
      rows.push(
        target(
          `\`${name}\` on ${report.unanalysed.pets.toLocaleString('en')} pets never analysed: throughput ≥ ${TARGETS.unanalysedShare}× after ANALYZE`,
          throughput,
          TARGETS.unanalysedShare,
          '×',
          { digits: 2, atLeast: true },
        ),
      );
    }
  }
  if (report.soak) {
    // Flat: grows less than the threshold, so a growth equal to it is not met.
    const flat = target(
      `RSS flat over ${report.soak.seconds} s (growth from the second fifth of the run to the last < ${TARGETS.soakGrowthMb} MB)`,
      report.soak.growthMb,
      TARGETS.soakGrowthMb,
      ' MB',
    );
    if (report.soak.growthMb >= TARGETS.soakGrowthMb) flat[3] = 'NOT met';
    rows.push(flat);
  }
  return rows;
}

const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const latency = (s) => `${s.p50} / ${s.p97_5} / ${s.p99}`;
const allocation = (s) =>
  s.kbAllocatedPerRequest === undefined
    ? '–'
    : `${s.kbAllocatedPerRequest} KB, ${s.scavengesPer1000} / ${s.gcUsPerRequest} µs`;

/** The webhooks scenario's section (bench/scenarios/webhooks.mjs). */
function webhooksMarkdown(w) {
  const c = w.commitToReceipt;
  const b = w.backlog;
  const { before, during } = w.reads;
  const row = (name, s, postgresUs) => [
    name,
    s.rps,
    latency(s),
    s.cpuMsPerRequest,
    postgresUs ?? '–',
    s.errors,
  ];
  const states = Object.entries(b.states)
    .map(([state, count]) => `${count.toLocaleString('en')} ${state}`)
    .join(', ');
  return [
    `Webhooks (an instance, a database and a receiver of their own: \`node:http\` on loopback answering 204; ${w.endpoints} endpoints subscribed to every event, and placeOrder records two, so an order makes ${w.deliveriesPerOrder} deliveries; ${w.connections} connections; medians of the rounds):`,
    '',
    table(
      [
        '`POST /v1/store/orders`',
        'req/s',
        'p50 / p97.5 / p99 ms',
        'service CPU ms/req',
        'PostgreSQL backends CPU µs/req',
        'errors + non-2xx',
      ],
      [
        row('no endpoint, as many as it takes', w.placeOrder.none, w.postgresUsPerRequest.none),
        row(
          `${w.endpoints} endpoints, the receiver holding the attempts (the request path)`,
          w.placeOrder.held,
          w.postgresUsPerRequest.held,
        ),
        row(`no endpoint, ${w.placeRate}/s`, w.placeOrder.noneAtRate),
        row(
          `${w.endpoints} endpoints delivering, ${w.placeRate}/s (counted until every delivery arrived)`,
          w.placeOrder.delivered,
        ),
      ],
    ),
    '',
    `Commit to receipt, from the bench's clock when the change's 201 arrived (just after its commit) to the receiver's when the delivery's body had arrived, over ${c.deliveries.toLocaleString('en')} deliveries at ${w.placeRate * w.deliveriesPerOrder}/s: ` +
      `p50 ${c.p50} ms, p95 ${c.p95} ms, p99 ${c.p99} ms, max ${c.max} ms (${c.fannedOut.toLocaleString('en')} fanned out, ${c.distinct.toLocaleString('en')} received, ${c.duplicates} twice, ${c.unmatched} not matched to a change). ` +
      `The service's CPU per delivery: ${w.deliveryCpuMs} ms in those rounds, about ${b.deliveryCpuMs} ms in the drain below (PostgreSQL's backends about ${b.deliveryPostgresUs} µs).`,
    '',
    `Backlog: ${b.deliveries.toLocaleString('en')} deliveries, of events inserted in one transaction (${b.insertSeconds} s) that the worker fanned out (${(b.fannedOut ?? 0).toLocaleString('en')} made), ${b.delivered.toLocaleString('en')} received in ${b.drainSeconds} s of draining (${b.deliveriesPerSecond} a second; ${b.duplicates} twice; at the end ${states}), ` +
      `while \`${w.reads.operation}\` ran at ${w.listRate} req/s throughout, in ${b.windows} windows of ${b.windowSeconds} s that took turns, the worker paused (the receiver holding its answers) and then draining, over ${b.elapsedSeconds} s. ` +
      `That load's p99 (each read timed from when it was due): ${w.reads.draining.p99} ms over ${w.reads.draining.requests.toLocaleString('en')} reads while draining, ${w.reads.paused.p99} ms over ${w.reads.paused.requests.toLocaleString('en')} while paused (${w.reads.p99Ratio}×), ` +
      `${w.reads.beforeRaw.p99} ms over ${w.reads.beforeRaw.requests.toLocaleString('en')} before the backlog (${w.reads.p99RatioToBefore}×). ` +
      `The load's figures over each run: p50 / p97.5 / p99 ${latency(before)} ms before (${before.cpuMsPerRequest} CPU ms/req), ${latency(during)} ms over the whole drain.`,
  ];
}

export function markdown(report) {
  const { machine, settings } = report;
  const lines = [
    `Machine: ${machine.cpus} cores (${machine.model}), ${machine.memoryGb} GB, Node ${machine.node}, ${machine.postgres}, Redis ${machine.redis}. ` +
      `Commit ${report.commit}; ${report.date}.`,
    `Settings: ${settings.rows.toLocaleString('en')} pets, ${settings.rounds} interleaved rounds of ${settings.seconds} s after a ${settings.warmup} s warm-up, ` +
      `${settings.connections} connections, the service with NODE_ENV=production and LOG_LEVEL=${settings.logLevel}${settings.profiled ? ', under the CPU profiler (slower: not comparable with other runs)' : ''}; medians over the rounds ` +
      `(service / floor: the median of each round's ratio). Command: \`${settings.command}\`.`,
    '',
    table(
      [
        'Operation',
        'service req/s',
        'floor req/s',
        'service / floor',
        'per round',
        'service p50 / p97.5 / p99 ms',
        'floor p50 / p97.5 / p99 ms',
        'service CPU ms/req',
        'floor CPU ms/req',
        'service heap allocated/req, scavenges/1000 req, GC µs/req',
        'floor heap allocated/req, scavenges/1000 req, GC µs/req',
        'service errors + non-2xx',
        'service max RSS MB',
      ],
      Object.entries(report.operations).map(
        ([name, { service: s, floor: f, ratio, roundRatios }]) => [
          `\`${name}\``,
          s.rps,
          f.rps,
          ratio,
          roundRatios.join(', '),
          latency(s),
          latency(f),
          s.cpuMsPerRequest,
          f.cpuMsPerRequest,
          allocation(s),
          allocation(f),
          s.errors,
          s.rssMaxMb,
        ],
      ),
    ),
    '',
    `No-I/O ceiling (node:http, fixed body): ${report.ceiling.rps} req/s. Peak RSS over the run: service ${report.servicePeakRssMb} MB, floor ${report.floorPeakRssMb} MB.`,
    '',
    "Latency at half the service's rate (fixed rate, coordinated omission corrected; medians of the rounds):",
    '',
    table(
      ['Operation', 'rate req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors + non-2xx'],
      Object.entries(report.halfRate).map(([name, h]) => [
        `\`${name}\``,
        h.rate,
        h.p50,
        h.p97_5,
        h.p99,
        h.errors,
      ]),
    ),
  ];
  if (report.dataScale) {
    lines.push(
      '',
      'Data scale (one instance per database size, measured back to back in each round; medians of the rounds, cost ratio: ' +
        "the median of each round's req/s ratio; SQL: mean round trip of the statement from a client on loopback, 300 runs):",
      '',
      table(
        [
          'Operation',
          'rows',
          'req/s',
          'p50 / p99 ms',
          'CPU ms/req',
          'SQL ms',
          'cost ratio (req/s)',
        ],
        Object.entries(report.dataScale).flatMap(([name, s]) => [
          [
            `\`${name}\``,
            s.smallRows.toLocaleString('en'),
            s.small.rps,
            `${s.small.p50} / ${s.small.p99}`,
            s.small.cpuMsPerRequest,
            s.smallSqlMs,
            '',
          ],
          [
            '',
            s.largeRows.toLocaleString('en'),
            s.large.rps,
            `${s.large.p50} / ${s.large.p99}`,
            s.large.cpuMsPerRequest,
            s.largeSqlMs,
            `${s.costRatio}×`,
          ],
        ]),
      ),
    );
  }
  if (report.scaleOut) {
    const { one, two, oneBusyPct, twoBusyPct, oneCpuMsPerRequest, twoCpuMsPerRequest } =
      report.scaleOut;
    lines.push(
      '',
      `Scale-out (\`${report.scaleOut.operation}\`, ${settings.connections} connections per instance): one instance ${one} req/s, two instances sharing PostgreSQL and Redis ${two} req/s (${report.scaleOut.ratio.toFixed(2)}×). ` +
        `The machine's ${machine.cpus} cores were ${oneBusyPct} % busy with one instance and ${twoBusyPct} % with two, and the service spent ${oneCpuMsPerRequest} and ${twoCpuMsPerRequest} CPU ms per request: ` +
        'the load generator, PostgreSQL and Redis run on the same cores, so a second instance has no core of its own here.',
    );
  }
  if (report.soak) {
    const s = report.soak;
    lines.push(
      '',
      `Soak: the four operations in turn for ${s.seconds} s, ${s.rps} req/s; service RSS ${s.earlyMb} MB in the second fifth of the run, ${s.lateMb} MB in the last, ${s.maxMb} MB at most (samples every ${s.sampleSeconds} s: ${s.samplesMb.join(', ')}).`,
    );
  }
  if (report.store) {
    const { store } = report;
    lines.push(
      '',
      `Store (an instance and a database of their own: ${store.pets.toLocaleString('en')} pets, 10,000 orders of the bench's key to page, and an available pet for every order placed; medians of the rounds):`,
      '',
      table(
        ['Operation', 'req/s', 'p50 / p97.5 / p99 ms', 'CPU ms/req', 'errors + non-2xx'],
        Object.entries(store.operations).map(([name, s]) => [
          `\`${name}\``,
          s.rps,
          latency(s),
          s.cpuMsPerRequest,
          s.errors,
        ]),
      ),
      '',
      `Orders placed in the run: ${store.ordersPlaced.toLocaleString('en')}; inventory at the end: ${JSON.stringify(store.inventory)}. ` +
        `Keeping the inventory's counters: \`POST /v1/pets\` at ${store.countersRatio}× the req/s of the same creates with the counting triggers disabled ` +
        `(${store.withoutCounters.rps} req/s, ${store.withoutCounters.cpuMsPerRequest} CPU ms/req without). The floor writes to a table with the same triggers, so the service / floor ratio above includes them on both sides.`,
    );
  }
  if (report.catalogue) {
    const c = report.catalogue;
    lines.push(
      '',
      `Catalogue (an instance and a database of their own: ${c.pets.toLocaleString('en')} pets in 50 categories, \`name=${c.searched}\` matching a few hundred of them; every update renames a pet of its own under \`If-Match: "1"\`; medians of the rounds; ${c.categories.toLocaleString('en')} categories at the end):`,
      '',
      table(
        ['Operation', 'req/s', 'p50 / p97.5 / p99 ms', 'CPU ms/req', 'errors + non-2xx'],
        Object.entries(c.operations).map(([name, s]) => [
          `\`${name}\``,
          s.rps,
          latency(s),
          s.cpuMsPerRequest,
          s.errors,
        ]),
      ),
    );
  }
  if (report.organizations) {
    const o = report.organizations;
    lines.push(
      '',
      `Organisations (an instance and a database of their own: ${o.organizations.toLocaleString('en')} organisations from Lisbon to Helsinki, ${o.withinRadius} of them within the 100 km of the near page; medians of the rounds):`,
      '',
      table(
        ['Operation', 'req/s', 'p50 / p97.5 / p99 ms', 'CPU ms/req', 'errors + non-2xx'],
        Object.entries(o.operations).map(([name, s]) => [
          `\`${name}\``,
          s.rps,
          latency(s),
          s.cpuMsPerRequest,
          s.errors,
        ]),
      ),
    );
  }
  if (report.webhooks) lines.push('', ...webhooksMarkdown(report.webhooks));
  const rows = verdicts(report);
  lines.push('', 'Targets:', '', table(['Target', 'Measured', 'Margin', ''], rows));
  const missed = rows.filter((row) => row[3] !== 'met');
  if (missed.length > 0) {
    lines.push(
      '',
      `Not met: ${missed.map(([asked, measured, margin]) => `${asked} (${measured}, missed by ${margin.slice(1)})`).join('; ')}. ` +
        "`npm run bench -- --profile` shows where the service's CPU time goes; docs/performance.md says what it showed last.",
    );
  }
  return lines.join('\n');
}
