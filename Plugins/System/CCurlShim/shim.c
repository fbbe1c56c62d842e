#include "CCurlShim.h"

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl_easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) { return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn); }
CURLcode ccurl_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) { return curl_easy_setopt(handle, CURLOPT_READFUNCTION, fn); }
CURLcode ccurl_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) { return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, fn); }
CURLcode ccurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback fn) { return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, fn); }
CURLcode ccurl_setopt_prereq_function(CURL *handle, curl_prereq_callback fn) { return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, fn); }
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl_easy_getinfo(handle, info, value); }
CURLSHcode ccurl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) { return curl_share_setopt(share, option, value); }
CURLSHcode ccurl_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) { return curl_share_setopt(share, option, value); }
CURLSHcode ccurl_share_setopt_lock_function(CURLSH *share, curl_lock_function fn) { return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, fn); }
CURLSHcode ccurl_share_setopt_unlock_function(CURLSH *share, curl_unlock_function fn) { return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, fn); }
