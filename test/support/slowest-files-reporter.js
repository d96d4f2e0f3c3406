// Prints the run's slowest test files at its end, with the run's wall time: the first thing to
// look at when the suite grows slower than its budget (docs/operations.md, "Tests and CI").
const SHOWN = 15;

class SlowestFilesReporter {
  onRunStart() {
    this.started = Date.now();
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({
        path: file.testFilePath.slice(process.cwd().length + 1),
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      }))
      .filter(({ seconds }) => Number.isFinite(seconds))
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length < 2) return;
    const lines = files
      .slice(0, SHOWN)
      .map(({ path, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${path}`);
    const wall = ((Date.now() - this.started) / 1000).toFixed(0);
    process.stdout.write(
      `\nSlowest ${lines.length} of ${files.length} files (the run took ${wall} s):\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
