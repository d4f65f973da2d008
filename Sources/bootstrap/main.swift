print("bootstrap: work in progress")
