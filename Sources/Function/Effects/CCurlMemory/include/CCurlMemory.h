#ifndef CCURLMEMORY_H
#define CCURLMEMORY_H

#include <stddef.h>

// Memory for libcurl (curl_global_init_mem), kept by each thread in free lists of 16 << k bytes (k = 0 to 8) and
// handed out again without calling into malloc: a Runtime API round trip makes dozens of small allocations, the same
// ones each time. Larger blocks come from malloc and go back to it. Each block starts with a 16-byte header (its size
// class and size), so the memory handed out keeps malloc's 16-byte alignment.
//
// A block may be freed on any thread: it joins that thread's lists. The lists of a thread that ends go back to malloc.

void *_Nullable ccurlmemory_malloc(size_t size);
void ccurlmemory_free(void *_Nullable pointer);
void *_Nullable ccurlmemory_realloc(void *_Nullable pointer, size_t size);
void *_Nullable ccurlmemory_calloc(size_t count, size_t size);
char *_Nullable ccurlmemory_strdup(const char *_Nullable text);

// How many bytes the calling thread's free lists hold, headers included (for tests).
size_t ccurlmemory_cached_bytes(void);

// 1 when the pool is meant to serve libcurl: 0 when the program runs with AddressSanitizer's or ThreadSanitizer's
// runtime, which watch libcurl's memory only when it comes from malloc.
int ccurlmemory_should_serve(void);

#endif
