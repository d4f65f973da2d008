// AWSSigV4: work in progress.
