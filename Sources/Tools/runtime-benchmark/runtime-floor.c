// The floor for runtime-benchmark: the least a Lambda custom runtime can do on libcurl.
// One reused easy handle; GET next, POST the event back as the response; no JSON, no logging, no error reporting.
// Not a SwiftPM target: runtime-benchmark compiles it at each run with the system C compiler, as a user would build
// it (`cc -O2 runtime-floor.c -lcurl`), into its scratch folder; the Swift runtime and libstdc++ stay out of it.
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct buffer {
    char *bytes;
    size_t length;
    size_t capacity;
};

static size_t collect_body(char *data, size_t size, size_t count, void *context) {
    struct buffer *body = context;
    size_t length = size * count;
    if (body->length + length > body->capacity) {
        size_t capacity = (body->length + length) * 2;
        char *grown = realloc(body->bytes, capacity);
        if (grown == NULL) return 0;
        body->bytes = grown;
        body->capacity = capacity;
    }
    memcpy(body->bytes + body->length, data, length);
    body->length += length;
    return length;
}

static const char request_id_header[] = "Lambda-Runtime-Aws-Request-Id:";

static size_t find_request_id(char *data, size_t size, size_t count, void *context) {
    char *request_id = context;
    size_t length = size * count;
    size_t name_length = sizeof(request_id_header) - 1;
    if (length > name_length && strncasecmp(data, request_id_header, name_length) == 0) {
        size_t start = name_length;
        while (start < length && data[start] == ' ') start++;
        size_t end = length;
        while (end > start && (data[end - 1] == '\r' || data[end - 1] == '\n')) end--;
        size_t id_length = end - start < 127 ? end - start : 127;
        memcpy(request_id, data + start, id_length);
        request_id[id_length] = 0;
    }
    return length;
}

int main(void) {
    const char *api = getenv("AWS_LAMBDA_RUNTIME_API");
    if (api == NULL) {
        fprintf(stderr, "AWS_LAMBDA_RUNTIME_API is not set\n");
        return 1;
    }
    char next_url[512], response_url[768], request_id[128] = "";
    snprintf(next_url, sizeof next_url, "http://%s/2018-06-01/runtime/invocation/next", api);
    struct buffer body = {0}, answer = {0};

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    struct curl_slist *no_expect = curl_slist_append(NULL, "Expect:");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 1000L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect_body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, find_request_id);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, request_id);

    for (;;) {
        body.length = 0;
        request_id[0] = 0;
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
        curl_easy_setopt(curl, CURLOPT_URL, next_url);
        curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
        if (curl_easy_perform(curl) != CURLE_OK || request_id[0] == 0) return 1;

        snprintf(response_url, sizeof response_url, "http://%s/2018-06-01/runtime/invocation/%s/response", api,
                 request_id);
        curl_easy_setopt(curl, CURLOPT_URL, response_url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, no_expect);
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body.length);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.length ? body.bytes : "");
        answer.length = 0;
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
        if (curl_easy_perform(curl) != CURLE_OK) return 1;
    }
}
