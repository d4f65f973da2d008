print("runtime-benchmark: work in progress")
