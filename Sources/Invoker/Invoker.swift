// Invoker: work in progress.
