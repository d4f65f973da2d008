// LosslessJSON: work in progress.
