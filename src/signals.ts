// SIGINT/SIGTERM during a run: tear everything down, then exit. Returns the `onSignal` hook the
// engine takes (it registers a teardown and gets back an unregister function).
export function exitOnSignals(
  exitCode: (signal: NodeJS.Signals) => number,
  announce: (signal: NodeJS.Signals) => void = () => {},
): (teardown: () => Promise<void>) => () => void {
  return (teardown) => {
    const handler = (signal: NodeJS.Signals) => {
      announce(signal);
      teardown().finally(() => process.exit(exitCode(signal)));
    };
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  };
}
