// LambdaRuntime: work in progress.
