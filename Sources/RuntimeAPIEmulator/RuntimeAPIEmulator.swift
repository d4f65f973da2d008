// RuntimeAPIEmulator: work in progress.
