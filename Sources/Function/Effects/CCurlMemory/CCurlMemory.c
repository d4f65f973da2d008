#include "CCurlMemory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { class_count = 9, header_size = 16 };

// The first bytes of a block: its size class (class_count for a block from malloc) and the size asked for.
struct header {
    size_t size_class;
    size_t size;
};

struct free_block {
    struct free_block *next;
};

static _Thread_local struct free_block *free_lists[class_count];
static _Thread_local int registered_for_exit;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static size_t class_capacity(size_t size_class) { return (size_t)16 << size_class; }

// The smallest class whose capacity holds `size`; class_count when none does.
static size_t class_of(size_t size) {
    if (size <= 16) return 0;
    size_t size_class = (size_t)(64 - __builtin_clzll((unsigned long long)(size - 1))) - 4;
    return size_class < class_count ? size_class : class_count;
}

// Gives the lists of a thread that ends back to malloc. A block freed after this, by a later destructor of the same
// thread, registers again, and pthread calls this once more.
static void release_lists(void *unused) {
    (void)unused;
    for (size_t size_class = 0; size_class < class_count; size_class++) {
        struct free_block *block = free_lists[size_class];
        while (block != NULL) {
            struct free_block *next = block->next;
            free(block);
            block = next;
        }
        free_lists[size_class] = NULL;
    }
    registered_for_exit = 0;
}

static void make_exit_key(void) { pthread_key_create(&exit_key, release_lists); }

// Once per thread, before its first block is kept: a non-null value makes pthread call release_lists as it ends.
static void register_for_exit(void) {
    pthread_once(&exit_key_once, make_exit_key);
    pthread_setspecific(exit_key, (void *)1);
    registered_for_exit = 1;
}

void *ccurlmemory_malloc(size_t size) {
    size_t size_class = class_of(size);
    struct header *header;
    if (size_class < class_count && free_lists[size_class] != NULL) {
        struct free_block *block = free_lists[size_class];
        free_lists[size_class] = block->next;
        header = (struct header *)block;
    } else {
        size_t capacity = size_class < class_count ? class_capacity(size_class) : size;
        if (capacity > SIZE_MAX - header_size) return NULL;
        header = malloc(header_size + capacity);
        if (header == NULL) return NULL;
    }
    header->size_class = size_class;
    header->size = size;
    return (char *)header + header_size;
}

void ccurlmemory_free(void *pointer) {
    if (pointer == NULL) return;
    struct header *header = (struct header *)((char *)pointer - header_size);
    size_t size_class = header->size_class;
    if (size_class >= class_count) {
        free(header);
        return;
    }
    if (!registered_for_exit) register_for_exit();
    struct free_block *block = (struct free_block *)header;
    block->next = free_lists[size_class];
    free_lists[size_class] = block;
}

void *ccurlmemory_realloc(void *pointer, size_t size) {
    if (pointer == NULL) return ccurlmemory_malloc(size);
    struct header *header = (struct header *)((char *)pointer - header_size);
    if (header->size_class < class_count && size <= class_capacity(header->size_class)) {
        header->size = size;
        return pointer;
    }
    void *moved = ccurlmemory_malloc(size);
    if (moved == NULL) return NULL;
    memcpy(moved, pointer, header->size < size ? header->size : size);
    ccurlmemory_free(pointer);
    return moved;
}

void *ccurlmemory_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    void *pointer = ccurlmemory_malloc(count * size);
    if (pointer != NULL) memset(pointer, 0, count * size);
    return pointer;
}

char *ccurlmemory_strdup(const char *text) {
    if (text == NULL) return NULL;
    size_t length = strlen(text) + 1;
    char *copy = ccurlmemory_malloc(length);
    if (copy != NULL) memcpy(copy, text, length);
    return copy;
}

size_t ccurlmemory_cached_bytes(void) {
    size_t bytes = 0;
    for (size_t size_class = 0; size_class < class_count; size_class++) {
        for (struct free_block *block = free_lists[size_class]; block != NULL; block = block->next) {
            bytes += header_size + class_capacity(size_class);
        }
    }
    return bytes;
}

// Defined when a sanitizer's runtime is linked into the program, whichever code it instruments (swiftc's -sanitize
// instruments the Swift code only, not this file).
extern void __asan_init(void) __attribute__((weak));
extern void __tsan_init(void) __attribute__((weak));

int ccurlmemory_should_serve(void) { return __asan_init == NULL && __tsan_init == NULL; }
