// CurlHTTP: work in progress.
