#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so one typed wrapper each. */
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);
#endif
