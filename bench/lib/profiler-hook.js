// Preloaded (`node --require`) into a server by `npm run bench -- --profile`: the first SIGWINCH (not one of the signals Nest's shutdown hooks take) starts the
// V8 CPU profiler, the second writes the profile to $BENCH_PROFILE_FILE. The app itself is untouched, and
// the profile covers the timed window only (no start-up, no warm-up).
'use strict';
const fs = require('node:fs');
const inspector = require('node:inspector');

const file = process.env.BENCH_PROFILE_FILE;
const session = new inspector.Session();
session.connect();
let running = false;

process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
        session.post('Profiler.start', () => fs.writeFileSync(`${file}.started`, '')),
      ),
    );
    return;
  }
  session.post('Profiler.stop', (error, result) => {
    running = false;
    fs.writeFileSync(file, JSON.stringify(error ? {} : result.profile));
  });
});
