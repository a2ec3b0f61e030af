/** Calls `onSignal` on SIGINT and SIGTERM, and `onExit` when this process exits; returns what removes both. */
export function onStopSignals(onSignal: (signal: NodeJS.Signals) => void, onExit: () => void): () => void {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  };
}
