#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_share_setopt are variadic: Swift cannot call them,
   so one typed wrapper per argument type. */
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback fn);
CURLcode ccurl_setopt_prereq_function(CURL *handle, curl_prereq_callback fn);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);
CURLSHcode ccurl_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value);
CURLSHcode ccurl_share_setopt_lock_function(CURLSH *share, curl_lock_function fn);
CURLSHcode ccurl_share_setopt_unlock_function(CURLSH *share, curl_unlock_function fn);
#endif
