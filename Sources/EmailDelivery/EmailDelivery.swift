// EmailDelivery: work in progress.
