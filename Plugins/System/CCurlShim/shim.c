#include "CCurlShim.h"

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) { return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn); }
CURLcode ccurl_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) { return curl_easy_setopt(handle, CURLOPT_READFUNCTION, fn); }
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl_easy_getinfo(handle, info, value); }
CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) { return curl_share_setopt(share, option, value); }
