#ifndef LATCH_CCURL_SHIM_H
#define LATCH_CCURL_SHIM_H
#include <curl/curl.h>

// `curl_easy_setopt` and `curl_easy_getinfo` are variadic, so Swift cannot call them. These
// wrappers fix the type of the one argument for each kind of option LatchCurl sets, as the man
// pages curl_easy_setopt(3) and curl_easy_getinfo(3) prescribe per option.

/// An option taking a `long` (CURLOPTTYPE_LONG).
static inline CURLcode latch_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option taking a `curl_off_t` (CURLOPTTYPE_OFF_T).
static inline CURLcode latch_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option taking a C string (CURLOPTTYPE_STRINGPOINT), which libcurl copies; NULL resets it.
static inline CURLcode latch_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option taking a data pointer (CURLOPTTYPE_OBJECTPOINT / CBPOINT), e.g. CURLOPT_WRITEDATA
/// or CURLOPT_ERRORBUFFER.
static inline CURLcode latch_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option taking a header list (CURLOPTTYPE_SLISTPOINT), e.g. CURLOPT_HTTPHEADER.
static inline CURLcode latch_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION: both take a `curl_write_callback`.
static inline CURLcode latch_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_READFUNCTION: the callback that supplies an upload (an SMTP message) piece by piece.
static inline CURLcode latch_curl_setopt_read_callback(CURL *handle, curl_read_callback value) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, value);
}

/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode latch_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

/// An information item answered with a `long` (CURLINFO_LONG).
static inline CURLcode latch_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An information item answered with a C string owned by the handle (CURLINFO_STRING).
static inline CURLcode latch_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
